package kv

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/sink"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// mkdir makes dir, empty.
func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// Execute checks the command before it makes a directory or opens the
// outputs, runs the engines in the directory it gives the outputs as the
// disk under test, and removes that directory when it made it, and only then.
func TestExecute(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		edit     func(t *testing.T, c *Command, dir string)
		want     string // a usage error's text; "" is a run
		keepsDir bool   // the engines' directory is left after the run
	}{
		{"given empty dir", func(t *testing.T, c *Command, dir string) { c.Dir = dir; mkdir(t, dir) }, "", true},
		{"given new dir", func(_ *testing.T, c *Command, dir string) { c.Dir = dir }, "", false},
		{"temporary dir", func(_ *testing.T, c *Command, _ string) {}, "", false},
		{"bad storage profile", func(_ *testing.T, c *Command, dir string) { c.Dir, c.StorageProfile = dir, "floppy" }, "{StorageProfile}", false},
		{"sharded", func(_ *testing.T, c *Command, dir string) { c.Dir, c.Sharded = dir, true }, "drop {Shard} and {StartAt}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Command{MatrixOptions: harnessOptions("map:memory"), Stderr: io.Discard}
			// One cell, set on a small store: the shortest real run.
			c.Shape, c.Ops, c.Fsync, c.Spec.Keys = ShapeCells, []string{"set"}, "false", 1000
			dir := filepath.Join(t.TempDir(), "engines")
			tt.edit(t, &c, dir)
			var opened *sink.Sink
			var openedAt string
			open := func(diskPath string, secrets ...string) (plan.Output, error) {
				s, err := sink.Open(sink.IO{Stdout: io.Discard, Stderr: io.Discard}, "kv", sink.Options{Quiet: true, NoDiskProbe: true}, diskPath, secrets...)
				opened, openedAt = s, diskPath
				return s, err
			}
			err := Execute(context.Background(), c, open)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err) {
					t.Errorf("Execute: %v; want a usage error with %q", err, tt.want)
				}
				if opened != nil {
					t.Error("the outputs were opened for a command that was refused")
				}
				if _, err := os.Stat(dir); !os.IsNotExist(err) {
					t.Errorf("the refused command left %s: %v", dir, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if opened == nil || len(opened.Doc().Runs) == 0 {
				t.Fatal("Execute reported no run")
			}
			if c.Dir != "" && openedAt != c.Dir {
				t.Errorf("the outputs' disk under test is %s, want the engines' directory %s", openedAt, c.Dir)
			}
			if _, err := os.Stat(openedAt); (err == nil) != tt.keepsDir {
				t.Errorf("after the run, stat %s: %v; want it kept: %v", openedAt, err, tt.keepsDir)
			}
		})
	}
}
