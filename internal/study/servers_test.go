package study

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// A --dsn serves a placeholder by its scheme or its label; anything else
// is refused in one line naming the flag as spelled, the password masked.
func TestParseServers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		dsns []string
		want Servers
		err  string
	}{
		{"one PostgreSQL", []string{"postgres://a/x"}, Servers{PG: []string{"postgres://a/x"}, Given: true}, ""},
		{"by scheme and by label", []string{"postgresql://a/x", "tcp://m2:9000", "clickhouse-legacy=clickhouse://l2:9000/default", "pg=postgres://b/x"},
			Servers{PG: []string{"postgresql://a/x", "postgres://b/x"}, CHModern: "tcp://m2:9000", CHLegacy: "clickhouse://l2:9000/default", Given: true}, ""},
		{"a label in braces", []string{"{clickhouse}=clickhouse://m:9000/default"}, Servers{CHModern: "clickhouse://m:9000/default", Given: true}, ""},
		{"not a server", []string{"garbage"}, Servers{}, "-S garbage: not a PostgreSQL"},
		{"another database, masked", []string{"mysql://u:hunter2@db/x"}, Servers{}, "-S mysql://u:xxxxx@db/x: not a PostgreSQL"},
		{"no such placeholder", []string{"pg1=postgres://a/x"}, Servers{}, "-S pg1=…: no placeholder is {pg1}"},
		{"two modern", []string{"clickhouse://a:9000", "tcp://b:9000"}, Servers{}, "-S: {clickhouse} is given twice"},
		{"two legacy", []string{"clickhouse-legacy=tcp://a:9000", "clickhouse-legacy=tcp://b:9000"}, Servers{}, "{clickhouse-legacy} is given twice"},
		{"the wrong family", []string{"pg=clickhouse://a:9000"}, Servers{}, "{pg} wants a PostgreSQL"},
		{"the other wrong family", []string{"clickhouse-legacy=postgres://u:hunter2@db/x"}, Servers{}, "-S clickhouse-legacy=postgres://u:xxxxx@db/x: {clickhouse-legacy} wants a ClickHouse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseServers(tt.dsns, Flags{Servers: "-S"})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !usage.Is(err) || strings.Contains(err.Error(), "hunter2") {
					t.Errorf("err %v, want a usage error with %q and no password", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}
