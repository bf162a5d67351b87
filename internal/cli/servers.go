package cli

import (
	"strings"

	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/study"
)

// studyServers resolves the servers of a study's steps: all from study
// run's --dsn, or, when it gives none, all from the environment; never some
// of each, so that a study given a server cannot touch one its user did
// not name. It is the one place the DBMETER_*_DSN variables name servers
// for a study; the steps get them as --dsn on their command lines.
//
// Each --dsn is [LABEL=]DSN. Without a label a DSN serves {pg}
// (postgres://, postgresql://) or {clickhouse} (clickhouse://, tcp://) by
// its scheme; clickhouse-legacy=DSN gives {clickhouse-legacy}. Anything
// else is a usage error in one line, the password masked.
//
// With no --dsn:
//
//	{pg}                 $DBMETER_PG_DSN
//	{clickhouse-legacy}  $DBMETER_CLICKHOUSE_LEGACY_DSN
//	{clickhouse}         $DBMETER_CLICKHOUSE_MODERN_DSN, else
//	                     $DBMETER_CLICKHOUSE_DSN unless it is the legacy
//	                     server (scripts/dev-services.sh exports its 18.16
//	                     server as both)
func studyServers(dsns []string, getenv func(string) string) (study.Servers, error) {
	if len(dsns) == 0 {
		return envServers(getenv), nil
	}
	s := study.Servers{Given: true}
	for _, v := range dsns {
		label, dsn := splitLabel(v)
		scheme := schemeLabel(dsn)
		if label == "" {
			label = scheme
		}
		shown := redact.String(dsn)
		switch {
		case scheme == "":
			return study.Servers{}, usagef("--dsn %s: not a PostgreSQL (postgres://…) or ClickHouse (clickhouse://…, tcp://…) address; a study's steps run on those", redact.String(v))
		case label != study.LabelPG && label != study.LabelModern && label != study.LabelLegacy:
			return study.Servers{}, usagef("--dsn %s=…: no placeholder is {%s}: label a server %s=, %s= or %s= (the first, second PostgreSQL server given are {pg1}, {pg2})", label, label, study.LabelPG, study.LabelModern, study.LabelLegacy)
		case (label == study.LabelPG) != (scheme == study.LabelPG):
			return study.Servers{}, usagef("--dsn %s=%s: {%s} wants a %s address", label, shown, label, wants(label))
		case label == study.LabelPG:
			s.PG = append(s.PG, dsn)
		case label == study.LabelModern && s.CHModern != "", label == study.LabelLegacy && s.CHLegacy != "":
			return study.Servers{}, usagef("--dsn: {%s} is given twice: a study runs one such server", label)
		case label == study.LabelModern:
			s.CHModern = dsn
		default:
			s.CHLegacy = dsn
		}
	}
	return s, nil
}

// envServers are the servers the environment names.
func envServers(getenv func(string) string) study.Servers {
	s := study.Servers{CHLegacy: getenv("DBMETER_CLICKHOUSE_LEGACY_DSN")}
	if d := getenv("DBMETER_PG_DSN"); d != "" {
		s.PG = []string{d}
	}
	if d := getenv("DBMETER_CLICKHOUSE_MODERN_DSN"); d != "" {
		s.CHModern = d
	} else if d := getenv("DBMETER_CLICKHOUSE_DSN"); d != s.CHLegacy {
		s.CHModern = d
	}
	return s
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
		return study.LabelPG
	case strings.HasPrefix(dsn, "clickhouse://"), strings.HasPrefix(dsn, "tcp://"):
		return study.LabelModern
	}
	return ""
}

func wants(label string) string {
	if label == study.LabelPG {
		return "PostgreSQL (postgres://…)"
	}
	return "ClickHouse (clickhouse://…, tcp://…)"
}
