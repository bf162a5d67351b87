package ch

import (
	"errors"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/extworker"
)

func TestWorkerVersionLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    WorkerVersion
		want string
	}{
		{"with a language", WorkerVersion{Script: "php.php", Hello: extworker.Hello{Language: "PHP", Runtime: "8.2.7", Library: "SeasClick 0.1"}}, "PHP 8.2.7, SeasClick 0.1"},
		{"without one", WorkerVersion{Script: "w.py", Hello: extworker.Hello{Runtime: "CPython 3.11", Library: "clickhouse-driver 0.2"}}, "CPython 3.11, clickhouse-driver 0.2"},
		{"cannot run", WorkerVersion{Script: "php.php", Err: errors.New("php: not found\nin PATH")}, "cannot run here: php: not found; in PATH"},
	}
	for _, tt := range tests {
		got := tt.v.String()
		if !strings.HasPrefix(got, "workers/"+tt.v.Script+" ") || !strings.HasSuffix(got, " "+tt.want) || strings.Contains(got, "\n") {
			t.Errorf("%s: %q, want workers/%s … %q on one line", tt.name, got, tt.v.Script, tt.want)
		}
	}
}
