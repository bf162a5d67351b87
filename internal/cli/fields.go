package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/flagval"
)

// Families name the settings of their configs as {Field} in their messages
// and ask whether the user gave a setting by its field: only the CLI knows
// which flag sets which field and how the user spelled it. A command
// declares each flag once, as an opt, and both the flag and the field it
// sets come from that one line: a map kept by hand beside the binding had
// drifted ({IdleTime} for a field named IdleTimeout).

// An opt declares one flag: the fields of the family's config it sets,
// as the family names them ("" when none does; several, space-separated,
// when the family names one flag by several: pg's -c is ClientsList,
// Clients and load's Workers), its names, the field's address and its
// help. The flag's default is the value the field holds when it is bound.
type opt struct {
	fields      string
	name, short string
	p           any // *string, *int, ... or a pflag.Value
	usage       string
}

// fieldsKey is the annotation that carries, on each flag, the fields it
// sets.
const fieldsKey = "dbmeter-fields"

// declare binds each opt to fs and marks the flag with its fields.
func declare(fs *pflag.FlagSet, opts ...opt) {
	for _, o := range opts {
		flagval.Bind(fs, o.name, o.short, o.p, o.usage)
		if o.fields != "" {
			fs.Lookup(o.name).Annotations = map[string][]string{fieldsKey: strings.Fields(o.fields)}
		}
	}
}

// fieldFlags maps each field that a flag of fs sets to the flag's long
// name, as the flags declare.
func fieldFlags(fs *pflag.FlagSet) map[string]string {
	out := map[string]string{}
	fs.VisitAll(func(f *pflag.Flag) {
		for _, field := range f.Annotations[fieldsKey] {
			out[field] = f.Name
		}
	})
	return out
}

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
// the error a run ended with) for the command that ran, each only as one
// of cmd's flags, so that a message two commands share names only a flag
// the running one has. (pg spells its own messages, in pgbench's short
// forms, before they get here.)
func commandSpelling(cmd *cobra.Command) map[string]string {
	if cmd == nil {
		return nil
	}
	return spelling(cmd.Flags(), fieldFlags(cmd.Flags()))
}
