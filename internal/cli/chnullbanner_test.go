package cli

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// null-server says where it listens as the flags a client gives, plain and
// under TLS, and its totals when it stops.
func TestCHNullServerBanner(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, `^null-server \(a protocol stand-in, not a ClickHouse\) on (127\.0\.0\.1:\d+)\n  --dsn clickhouse://127\.0\.0\.1:\d+/default\n  --http-url http://127\.0\.0\.1:\d+\nnull-server: 0 queries \(0 refused\), 0 INSERTs acknowledged with 0 rows, 0 queries over TLS\n$`},
		{[]string{"--tls"}, `--dsn clickhouse://127\.0\.0\.1:\d+/default\?secure=true&skip_verify=true\n  --http-url https://127\.0\.0\.1:\d+\n`},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		var out, errb bytes.Buffer
		code := Main(ctx, Env{Args: append([]string{"ch", "null-server", "--listen", "127.0.0.1:0"}, tc.args...),
			Stdout: &out, Stderr: &errb, Stdin: strings.NewReader(""), Getenv: func(string) string { return "" }})
		cancel()
		if code != 0 || !regexp.MustCompile(tc.want).MatchString(out.String()) {
			t.Errorf("null-server %v: exit %d, stdout %q, stderr %q; want %s", tc.args, code, out.String(), errb.String(), tc.want)
		}
	}
}
