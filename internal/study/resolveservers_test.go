package study

import (
	"reflect"
	"strings"
	"testing"
)

// A study's servers are all study run's --dsn, or with none all the
// environment's, never some of each: the modern ClickHouse of the
// environment is DBMETER_CLICKHOUSE_MODERN_DSN, or DBMETER_CLICKHOUSE_DSN
// unless that is the legacy 18.16 server (as scripts/dev-services.sh
// exports it); else the stand-in (""). How a --dsn serves a placeholder
// is TestParseServers; here, that a mistake names the flag.
func TestResolveServers(t *testing.T) {
	t.Parallel()
	env := map[string]string{"DBMETER_PG_DSN": "postgres://e/x", "DBMETER_CLICKHOUSE_MODERN_DSN": "tcp://m", "DBMETER_CLICKHOUSE_LEGACY_DSN": "tcp://l"}
	tests := []struct {
		name string
		dsns []string
		env  map[string]string
		want Servers
		err  string
	}{
		{"none", nil, nil, Servers{}, ""},
		{"modern", nil, map[string]string{"DBMETER_CLICKHOUSE_MODERN_DSN": "tcp://m"}, Servers{CHModern: "tcp://m"}, ""},
		{"dsn is another server", nil, map[string]string{"DBMETER_CLICKHOUSE_DSN": "tcp://d", "DBMETER_CLICKHOUSE_LEGACY_DSN": "tcp://l"}, Servers{CHLegacy: "tcp://l", CHModern: "tcp://d"}, ""},
		{"dsn is the legacy server", nil, map[string]string{"DBMETER_CLICKHOUSE_DSN": "tcp://l", "DBMETER_CLICKHOUSE_LEGACY_DSN": "tcp://l"}, Servers{CHLegacy: "tcp://l"}, ""},
		{"the environment's", nil, env, Servers{PG: []string{"postgres://e/x"}, CHModern: "tcp://m", CHLegacy: "tcp://l"}, ""},
		{"one PostgreSQL given replaces all of the environment", []string{"postgres://a/x"}, env, Servers{PG: []string{"postgres://a/x"}, Given: true}, ""},
		{"not a server", []string{"garbage"}, env, Servers{}, "--dsn garbage: not a PostgreSQL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveServers(tt.dsns, Flags{Server: "--dsn", Servers: "--dsn"}, func(k string) string { return tt.env[k] })
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
