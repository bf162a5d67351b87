package study

import (
	"reflect"
	"strings"
	"testing"
)

// TestParseServers: the servers given replace the environment's, each by
// its scheme or its label; anything else is refused.
func TestParseServers(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"DBMETER_PG_DSN":                "postgres://env/pg",
		"DBMETER_CLICKHOUSE_LEGACY_DSN": "clickhouse://env-legacy:9000/default",
		"DBMETER_CLICKHOUSE_MODERN_DSN": "clickhouse://env-modern:9000/default",
	}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name  string
		given []string
		want  Servers
		err   string
	}{
		{"the environment's", nil, Servers{PG: []string{"postgres://env/pg"}, Legacy: "clickhouse://env-legacy:9000/default", Modern: "clickhouse://env-modern:9000/default"}, ""},
		{"one PostgreSQL replaces all of the environment", []string{"postgres://a/x"}, Servers{PG: []string{"postgres://a/x"}, Given: true}, ""},
		{"by scheme and by label", []string{"postgresql://a/x", "tcp://m:9000", "clickhouse-legacy=clickhouse://l:9000/default", "pg=postgres://b/x"},
			Servers{PG: []string{"postgresql://a/x", "postgres://b/x"}, Modern: "tcp://m:9000", Legacy: "clickhouse://l:9000/default", Given: true}, ""},
		{"a label in braces", []string{"{clickhouse}=clickhouse://m:9000/default"}, Servers{Modern: "clickhouse://m:9000/default", Given: true}, ""},
		{"not a server", []string{"garbage"}, Servers{}, "--servers garbage: not a PostgreSQL"},
		{"no such placeholder", []string{"pg1=postgres://a/x"}, Servers{}, "no placeholder is {pg1}"},
		{"two modern", []string{"clickhouse://a:9000", "tcp://b:9000"}, Servers{}, "{clickhouse} is given twice"},
		{"the wrong family", []string{"pg=clickhouse://a:9000"}, Servers{}, "{pg} wants a PostgreSQL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseServers(tt.given, getenv, Flags{Servers: "--servers"})
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
