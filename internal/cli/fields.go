package cli

import (
	"slices"

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
