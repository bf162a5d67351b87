package workers_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/servertest"
	"github.com/dbmeter/dbmeter/workers"
)

// The minimal workers docs/worker-protocol.md shows are the files in the
// repository, and they speak the protocol: a hello, a setup, pings and an
// operation, answered by a real interpreter over real pipes.
func TestMinimalWorkers(t *testing.T) {
	doc, err := os.ReadFile("../docs/worker-protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, interpreter, hint string }{
		{"php/minimal.php", "php", "apt-get install php8.2-cli (scripts/deps.sh)"},
		{"python/minimal.py", "python3", "apt-get install python3"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(doc), string(src)) {
				t.Errorf("docs/worker-protocol.md does not show %s as it is", tc.file)
			}
			path, err := workers.Write(t.TempDir(), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			bin := servertest.Tool(t, tc.interpreter, tc.hint)
			ctx := context.Background()
			w, err := extworker.Start(ctx, extworker.Spec{Name: tc.file, Argv: []string{bin, path}, Setup: map[string]any{"host": "127.0.0.1"}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if err := w.Ping(ctx); err != nil {
				t.Fatal(err)
			}
			r, err := w.Call(ctx, []byte(`{"op":"query","sql":"SELECT 1"}`))
			if err != nil || !r.OK || r.Ns <= 0 {
				t.Fatalf("query: %+v, %v", r, err)
			}
			if h := w.Hello(); h.Protocol != extworker.Version || h.Runtime == "" {
				t.Errorf("hello %+v", h)
			}
		})
	}
}

// The reference workers are valid programs for their interpreters.
func TestReferenceWorkersParse(t *testing.T) {
	for _, tc := range []struct {
		file string
		argv []string
	}{
		{"php/seasclick.php", []string{"php", "-l"}},
		{"python/clickhouse_driver_worker.py", []string{"python3", "-m", "py_compile"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			servertest.Tool(t, tc.argv[0], "scripts/deps.sh installs it")
			path, err := workers.Write(t.TempDir(), tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(tc.argv[0], append(tc.argv[1:], path)...).CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", tc.file, err, out)
			}
		})
	}
}
