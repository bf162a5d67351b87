package study

import (
	"strings"

	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Servers are the servers a study's placeholders stand for: all of them
// from study run's servers flag, or, when it gives none, all from the
// environment; never some of each, so that a study given a server cannot
// touch one its user did not name.
type Servers struct {
	// PG are {pg}'s servers; {pg1} and {pg2} the first and the second.
	PG []string
	// Legacy is {clickhouse-legacy}'s server, Modern {clickhouse}'s.
	Legacy, Modern string
	// Given says they came from the flag, and the environment was not read.
	Given bool
}

// Placeholder labels a server may be given with: clickhouse-legacy=DSN.
// A DSN without one serves {pg} (postgres://, postgresql://) or
// {clickhouse} (clickhouse://, tcp://) by its scheme.
const (
	LabelPG     = "pg"
	LabelModern = "clickhouse"
	LabelLegacy = "clickhouse-legacy"
)

// ParseServers reads the servers flag's values (each [LABEL=]DSN), or the
// environment when there are none. A value that is not a PostgreSQL or a
// ClickHouse address, or a label no placeholder has, is a usage error in
// one line, the DSN's password masked.
func ParseServers(given []string, getenv func(string) string, f Flags) (Servers, error) {
	if len(given) == 0 {
		return envServers(getenv), nil
	}
	s := Servers{Given: true}
	for _, v := range given {
		label, dsn := splitLabel(v)
		scheme := schemeLabel(dsn)
		if label == "" {
			label = scheme
		}
		shown := redact.String(dsn)
		switch {
		case scheme == "":
			return Servers{}, usage.Errorf("%s %s: not a PostgreSQL (postgres://…) or ClickHouse (clickhouse://…, tcp://…) address; a study's steps run on those", f.Servers, redact.String(v))
		case label != LabelPG && label != LabelModern && label != LabelLegacy:
			return Servers{}, usage.Errorf("%s %s=…: no placeholder is {%s}: label a server %s=, %s= or %s= (the first, second PostgreSQL server given are {pg1}, {pg2})", f.Servers, label, label, LabelPG, LabelModern, LabelLegacy)
		case (label == LabelPG) != (scheme == LabelPG):
			return Servers{}, usage.Errorf("%s %s=%s: {%s} wants a %s address", f.Servers, label, shown, label, wants(label))
		case label == LabelPG:
			s.PG = append(s.PG, dsn)
		case label == LabelModern && s.Modern != "", label == LabelLegacy && s.Legacy != "":
			return Servers{}, usage.Errorf("%s: {%s} is given twice: a study runs one such server", f.Servers, label)
		case label == LabelModern:
			s.Modern = dsn
		default:
			s.Legacy = dsn
		}
	}
	return s, nil
}

// envServers are the servers the environment names (scripts/dev-services.sh
// exports them).
func envServers(getenv func(string) string) Servers {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var s Servers
	if d := getenv("DBMETER_PG_DSN"); d != "" {
		s.PG = []string{d}
	}
	s.Legacy = getenv("DBMETER_CLICKHOUSE_LEGACY_DSN")
	s.Modern = modernDSN(getenv)
	return s
}

// splitLabel splits LABEL=DSN; a DSN alone has no label. A label is the
// placeholder's name, with or without its braces.
func splitLabel(v string) (label, dsn string) {
	l, d, ok := strings.Cut(v, "=")
	if !ok || strings.Contains(l, "://") || strings.ContainsAny(l, " ?&@/") {
		return "", v
	}
	return strings.Trim(l, "{}"), d
}

// schemeLabel is the placeholder a DSN's scheme serves by default.
func schemeLabel(dsn string) string {
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		return LabelPG
	case strings.HasPrefix(dsn, "clickhouse://"), strings.HasPrefix(dsn, "tcp://"):
		return LabelModern
	}
	return ""
}

func wants(label string) string {
	if label == LabelPG {
		return "PostgreSQL (postgres://…)"
	}
	return "ClickHouse (clickhouse://…, tcp://…)"
}

// Labelled gives dsn as it would be given for label, to name the
// placeholder that would serve a server given for the wrong one.
func Labelled(label, dsn string) string { return label + "=" + redact.String(dsn) }

// Uses says whether a step of s, in either form, holds the placeholder
// name ("{clickhouse}"), with or without DSN parameters.
func (s *Study) Uses(name string) bool {
	for _, st := range s.Steps {
		for _, w := range strings.Fields(st.Run + " " + st.Quick) {
			if n, _ := placeholder(w); n == name {
				return true
			}
		}
	}
	return false
}
