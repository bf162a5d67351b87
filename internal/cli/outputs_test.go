package cli

import (
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// outputArgs are the positional arguments a command needs to get past its
// argument check to the output check; a command that needs some and is
// not here fails TestOutputsCheckedFirst, which says so.
var outputArgs = map[string][]string{
	"dbmeter report":        {"a.json"},
	"dbmeter merge":         {"a.json"},
	"dbmeter compare":       {"a.json", "b.json"},
	"dbmeter study run":     {"s5"},
	"dbmeter study show":    {"s5"},
	"dbmeter study compare": {"a.json", "b.json"},
	"dbmeter study publish": {"a.json"},
	"dbmeter study board":   {"a.json"},
}

// runnable lists every command of the tree that runs something.
func runnable(root *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() {
			out = append(out, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

// TestOutputsCheckedFirst gives every command, each of its output flags in
// turn, a path in a directory that does not exist: each must refuse it in
// one line, exit 2, before any work (a study would log its first step,
// a benchmark its table or progress).
func TestOutputsCheckedFirst(t *testing.T) {
	t.Parallel()
	root := commandTree(Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}, &profiler{})
	bad := filepath.Join(t.TempDir(), "missing", "out.file")
	var tested int
	for _, cmd := range runnable(root) {
		path := cmd.CommandPath()
		if cmd.PersistentPreRunE != nil || cmd.PersistentPreRun != nil {
			if cmd != root {
				t.Errorf("%s has its own persistent pre-run hook: cobra would then skip the root's, and its outputs would not be checked", path)
			}
		}
		var flags []*pflag.Flag
		for _, name := range outputFlagNames() {
			if f := lookup(cmd, name); f != nil {
				flags = append(flags, f)
			}
		}
		for _, f := range flags {
			t.Run(strings.TrimPrefix(path, "dbmeter ")+" --"+f.Name, func(t *testing.T) {
				args := append(strings.Fields(strings.TrimPrefix(path, "dbmeter")), outputArgs[path]...)
				args = append(args, "--"+f.Name, bad)
				code, stdout, stderr := run(t, args...)
				want := "dbmeter: cannot write --" + f.Name + " " + bad + ": no such file or directory"
				if code != exitUsage || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, want) {
					t.Errorf("dbmeter %s: exit %d, stdout %q, stderr %q; want exit 2 and the one line %q (a command that needs arguments: add them to outputArgs)",
						strings.Join(args, " "), code, stdout, stderr, want)
				}
			})
			tested++
		}
	}
	if tested < 50 {
		t.Errorf("only %d command and flag pairs tested: the walk lost the tree", tested)
	}
}

// TestOutputFlagsListed holds every flag that writes a file to the list
// checkOutputs goes through, so that a new one cannot be missed.
func TestOutputFlagsListed(t *testing.T) {
	t.Parallel()
	root := commandTree(Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}, &profiler{})
	for _, cmd := range runnable(root) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "to this file") && !slices.Contains(outputFlagNames(), f.Name) {
				t.Errorf("%s --%s writes a file but is not in outputFlagNames, so it is not checked before the command runs", cmd.CommandPath(), f.Name)
			}
		})
	}
}

// lookup finds a flag cmd takes, its own or inherited, before parsing has
// merged them.
func lookup(cmd *cobra.Command, name string) *pflag.Flag {
	for _, fs := range []*pflag.FlagSet{cmd.Flags(), cmd.PersistentFlags(), cmd.InheritedFlags()} {
		if f := fs.Lookup(name); f != nil {
			return f
		}
	}
	return nil
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
