package nullserver

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Serve says where clients reach it when it starts and its totals when
// its context ends, and refuses options it cannot serve before saying
// anything.
func TestServe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		o       Options
		want    string // a pattern of what Serve writes
		wantErr bool
	}{
		{"plain", Options{Listen: "127.0.0.1:0"}, `^null-server \(a protocol stand-in, not a ClickHouse\) on 127\.0\.0\.1:\d+\n  \{DSN\} clickhouse://127\.0\.0\.1:\d+/default\n  \{HTTPURL\} http://127\.0\.0\.1:\d+\nnull-server: 0 queries .*\n$`, false},
		{"tls", Options{Listen: "127.0.0.1:0", TLS: true}, `\{DSN\} clickhouse://127\.0\.0\.1:\d+/default\?secure=true&skip_verify=true\n  \{HTTPURL\} https://`, false},
		{"a certificate without tls", Options{Listen: "127.0.0.1:0", CertOut: "ca.pem"}, `^$`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			var out bytes.Buffer
			err := Serve(ctx, tt.o, &out)
			if (err != nil) != tt.wantErr || (err != nil && !usage.Is(err)) {
				t.Errorf("Serve: %v; want a usage error: %v", err, tt.wantErr)
			}
			if !regexp.MustCompile(tt.want).MatchString(out.String()) {
				t.Errorf("Serve wrote %q; want %s", out.String(), tt.want)
			}
		})
	}
}
