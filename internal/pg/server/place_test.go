package server

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Place readies the cluster named by its data directory when it is the
// one the run connects to, with its postmaster's process tree, and
// refuses in one usage line one it cannot place. The "postmaster" here is
// the test process itself: running, with a tree of its own.
func TestPlace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pid := os.Getpid()
	if err := os.WriteFile(filepath.Join(dir, "postmaster.pid"), fmt.Appendf(nil, "%d\n%s\n0\n5999\n", pid, dir), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, named, endpoint, want string
	}{
		{"the cluster named", dir, "127.0.0.1:5999", ""},
		{"another port", dir, "127.0.0.1:5432", "listens on port 5999"},
		{"a remote server", dir, "db.example.com:5999", "is not on this machine"},
		{"not a cluster", t.TempDir(), "127.0.0.1:5999", "is not a running PostgreSQL cluster's data directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Place(tt.named, tt.endpoint)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err) {
					t.Errorf("Place: %v; want a usage error with %q", err, tt.want)
				}
				return
			}
			if err != nil || p.DataDir != dir || p.PID != pid || !slices.Contains(p.PIDs, pid) || !strings.Contains(p.Target, fmt.Sprintf("postmaster %d, data %s", pid, dir)) {
				t.Errorf("Place = %+v, %v; want the cluster in %s, postmaster %d", p, err, dir, pid)
			}
		})
	}
}
