package cli

import (
	"io"
	"maps"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Families name the settings of their configs as {Field} in their messages
// and ask whether the user gave a setting by its field: only the CLI knows
// which flag sets which field and how the user spelled it. Each command
// keeps a map from field to flag (long name) beside its bind.

// spelling is how fs's flags for fields are written in messages: the short
// form where there is one, except for the flags named long (as pgbench
// writes --latency-limit).
func spelling(fs *pflag.FlagSet, fields map[string]string, long ...string) map[string]string {
	out := make(map[string]string, len(fields))
	for field, name := range fields {
		if fl := fs.Lookup(name); fl != nil && fl.Shorthand != "" && !slices.Contains(long, name) {
			out[field] = "-" + fl.Shorthand
		} else {
			out[field] = "--" + name
		}
	}
	return out
}

// given says whether the user set the flag of field; false for a field
// this command has no flag for.
func given(fs *pflag.FlagSet, fields map[string]string) func(field string) bool {
	return func(field string) bool {
		name, ok := fields[field]
		return ok && fs.Lookup(name) != nil && fs.Changed(name)
	}
}

// commandSpelling spells the {Field}s of the messages that reach the user
// from deep inside a family (a server's refusal, a note while planning,
// the error a run ended with) for the command that ran: its own fields,
// the run settings' and the outputs', each only as one of cmd's flags, so that a
// message two commands share names only a flag the running one has. (pg
// spells its own messages, in pgbench's short forms, before they get
// here.)
func commandSpelling(cmd *cobra.Command) map[string]string {
	if cmd == nil {
		return nil
	}
	var own map[string]string
	switch cmd.CommandPath() {
	case "dbmeter ch insert":
		own = chInsertFields()
	case "dbmeter ch query":
		own = chQueryFields()
	case "dbmeter kv":
		own = kvFields()
	}
	fields := runFields()
	maps.Copy(fields, outputFields())
	maps.Copy(fields, own)
	fs := cmd.Flags()
	maps.DeleteFunc(fields, func(_, name string) bool { return fs.Lookup(name) == nil })
	return spelling(fs, fields)
}

// commandStderr is stderr spelled for the command that runs, once cobra
// has picked it (Main sets spelling before the command runs).
type commandStderr struct {
	w        io.Writer
	spelling map[string]string
}

func (s *commandStderr) Write(p []byte) (int, error) {
	return spellingWriter{s.w, s.spelling}.Write(p)
}
