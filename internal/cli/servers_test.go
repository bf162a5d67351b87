package cli

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/study"
)

// A study's servers are all study run's --dsn, or with none all the
// environment's, never some of each: the modern ClickHouse of the
// environment is DBMETER_CLICKHOUSE_MODERN_DSN, or DBMETER_CLICKHOUSE_DSN
// unless that is the legacy 18.16 server (as scripts/dev-services.sh
// exports it); else the stand-in (""). A --dsn serves a placeholder by
// its scheme or its label; anything else is refused.
func TestStudyServers(t *testing.T) {
	t.Parallel()
	env := map[string]string{"DBMETER_PG_DSN": "postgres://e/x", "DBMETER_CLICKHOUSE_MODERN_DSN": "tcp://m", "DBMETER_CLICKHOUSE_LEGACY_DSN": "tcp://l"}
	tests := []struct {
		name string
		dsns []string
		env  map[string]string
		want study.Servers
		err  string
	}{
		{"none", nil, nil, study.Servers{}, ""},
		{"modern", nil, map[string]string{"DBMETER_CLICKHOUSE_MODERN_DSN": "tcp://m"}, study.Servers{CHModern: "tcp://m"}, ""},
		{"dsn is another server", nil, map[string]string{"DBMETER_CLICKHOUSE_DSN": "tcp://d", "DBMETER_CLICKHOUSE_LEGACY_DSN": "tcp://l"}, study.Servers{CHLegacy: "tcp://l", CHModern: "tcp://d"}, ""},
		{"dsn is the legacy server", nil, map[string]string{"DBMETER_CLICKHOUSE_DSN": "tcp://l", "DBMETER_CLICKHOUSE_LEGACY_DSN": "tcp://l"}, study.Servers{CHLegacy: "tcp://l"}, ""},
		{"the environment's", nil, env, study.Servers{PG: []string{"postgres://e/x"}, CHModern: "tcp://m", CHLegacy: "tcp://l"}, ""},
		{"one PostgreSQL given replaces all of the environment", []string{"postgres://a/x"}, env, study.Servers{PG: []string{"postgres://a/x"}, Given: true}, ""},
		{"by scheme and by label", []string{"postgresql://a/x", "tcp://m2:9000", "clickhouse-legacy=clickhouse://l2:9000/default", "pg=postgres://b/x"}, env,
			study.Servers{PG: []string{"postgresql://a/x", "postgres://b/x"}, CHModern: "tcp://m2:9000", CHLegacy: "clickhouse://l2:9000/default", Given: true}, ""},
		{"a label in braces", []string{"{clickhouse}=clickhouse://m:9000/default"}, nil, study.Servers{CHModern: "clickhouse://m:9000/default", Given: true}, ""},
		{"not a server", []string{"garbage"}, env, study.Servers{}, "--dsn garbage: not a PostgreSQL"},
		{"no such placeholder", []string{"pg1=postgres://a/x"}, nil, study.Servers{}, "no placeholder is {pg1}"},
		{"two modern", []string{"clickhouse://a:9000", "tcp://b:9000"}, nil, study.Servers{}, "{clickhouse} is given twice"},
		{"the wrong family", []string{"pg=clickhouse://a:9000"}, nil, study.Servers{}, "{pg} wants a PostgreSQL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := studyServers(tt.dsns, func(k string) string { return tt.env[k] })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}
