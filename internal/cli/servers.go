package cli

import (
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/study"
)

// studyServers resolves the servers of a study's steps from study run's
// --dsn and the environment: the one place the DBMETER_*_DSN variables
// name servers for a study. The steps get them as --dsn on their command
// lines, so a step reads no server from the environment.
//
//	{pg}                 each --dsn postgres://…, else $DBMETER_PG_DSN
//	{clickhouse-legacy}  $DBMETER_CLICKHOUSE_LEGACY_DSN
//	{clickhouse}         --dsn clickhouse://… or tcp://…, else
//	                     $DBMETER_CLICKHOUSE_MODERN_DSN, else
//	                     $DBMETER_CLICKHOUSE_DSN unless it is the legacy
//	                     server (scripts/dev-services.sh exports its 18.16
//	                     server as both)
func studyServers(dsns []string, getenv func(string) string) study.Servers {
	s := study.Servers{
		PG:       dsnsOf(dsns, "postgres://", "postgresql://"),
		CHLegacy: getenv("DBMETER_CLICKHOUSE_LEGACY_DSN"),
	}
	if len(s.PG) == 0 && getenv("DBMETER_PG_DSN") != "" {
		s.PG = []string{getenv("DBMETER_PG_DSN")}
	}
	if ch := dsnsOf(dsns, "clickhouse://", "tcp://"); len(ch) > 0 {
		s.CHModern = ch[0]
	} else if d := getenv("DBMETER_CLICKHOUSE_MODERN_DSN"); d != "" {
		s.CHModern = d
	} else if d := getenv("DBMETER_CLICKHOUSE_DSN"); d != s.CHLegacy {
		s.CHModern = d
	}
	return s
}

// dsnsOf are the DSNs of dsns with one of the prefixes, in order.
func dsnsOf(dsns []string, prefixes ...string) []string {
	var out []string
	for _, d := range dsns {
		if slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(d, p) }) {
			out = append(out, d)
		}
	}
	return out
}
