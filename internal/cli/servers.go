package cli

import "github.com/dbmeter/dbmeter/internal/study"

// studyServers resolves the servers of a study's steps: all from study
// run's --dsn (study.ParseServers), or, when it gives none, all from the
// environment; never some of each, so that a study given a server cannot
// touch one its user did not name. It is the one place the DBMETER_*_DSN
// variables name servers for a study; a step gets its own through its
// environment (study.Exec.ServerEnv), never on its command line, and
// reads them as --dsn. With no --dsn:
//
//	{pg}                 $DBMETER_PG_DSN
//	{clickhouse-legacy}  $DBMETER_CLICKHOUSE_LEGACY_DSN
//	{clickhouse}         $DBMETER_CLICKHOUSE_MODERN_DSN, else
//	                     $DBMETER_CLICKHOUSE_DSN unless it is the legacy
//	                     server (scripts/dev-services.sh exports its 18.16
//	                     server as both)
func studyServers(dsns []string, getenv func(string) string) (study.Servers, error) {
	if len(dsns) > 0 {
		return study.ParseServers(dsns, studyFlags())
	}
	s := study.Servers{CHLegacy: getenv("DBMETER_CLICKHOUSE_LEGACY_DSN")}
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
