package study

import (
	"strings"

	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Labels a server may be given with to study run: clickhouse-legacy=DSN
// serves {clickhouse-legacy}. A DSN without one serves {pg} or
// {clickhouse} by its scheme.
const (
	LabelPG     = "pg"
	LabelModern = "clickhouse"
	LabelLegacy = "clickhouse-legacy"
)

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

// orEnv names the environment variable that could have given a server,
// unless servers were given to study run, which then stand alone.
func orEnv(sv Servers, name string) string {
	if sv.Given {
		return "; the environment's servers are not used when servers are given"
	}
	return " or " + name
}

// ParseServers resolves the servers given to study run, each [LABEL=]DSN:
// without a label a DSN serves {pg} (postgres://, postgresql://) or
// {clickhouse} (clickhouse://, tcp://) by its scheme; clickhouse-legacy=DSN
// gives {clickhouse-legacy}. Anything else is a usage error in one line,
// the password masked, naming the flag as f.Servers spells it. The
// servers it returns are Given: the environment's are not used beside them.
func ParseServers(dsns []string, f Flags) (Servers, error) {
	s := Servers{Given: true}
	for _, v := range dsns {
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
		case label == LabelModern && s.CHModern != "", label == LabelLegacy && s.CHLegacy != "":
			return Servers{}, usage.Errorf("%s: {%s} is given twice: a study runs one such server", f.Servers, label)
		case label == LabelModern:
			s.CHModern = dsn
		default:
			s.CHLegacy = dsn
		}
	}
	return s, nil
}

// splitLabel splits LABEL=DSN; a DSN alone has no label. A label is a
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

// ResolveServers resolves the servers of a study's steps: all from study
// run's --dsn (ParseServers), or, when it gives none, all from the
// environment; never some of each, so that a study given a server cannot
// touch one its user did not name. It is the one place the DBMETER_*_DSN
// variables name servers for a study; a step gets its own through its
// environment (Exec.ServerEnv), never on its command line, and
// reads them as --dsn. With no --dsn:
//
//	{pg}                 $DBMETER_PG_DSN
//	{clickhouse-legacy}  $DBMETER_CLICKHOUSE_LEGACY_DSN
//	{clickhouse}         $DBMETER_CLICKHOUSE_MODERN_DSN, else
//	                     $DBMETER_CLICKHOUSE_DSN unless it is the legacy
//	                     server (scripts/dev-services.sh exports its 18.16
//	                     server as both)
func ResolveServers(dsns []string, f Flags, getenv func(string) string) (Servers, error) {
	if len(dsns) > 0 {
		return ParseServers(dsns, f)
	}
	s := Servers{CHLegacy: getenv("DBMETER_CLICKHOUSE_LEGACY_DSN")}
	if d := getenv("DBMETER_PG_DSN"); d != "" {
		s.PG = []string{d}
	}
	if d := getenv("DBMETER_CLICKHOUSE_MODERN_DSN"); d != "" {
		s.CHModern = d
	} else if d := getenv("DBMETER_CLICKHOUSE_DSN"); d != s.CHLegacy {
		s.CHModern = d
	}
	return s, nil
}
