package study

import (
	"slices"
	"strings"
	"testing"
)

// TestStepsSpelledAsTheCLISays: the study spells no flag of its own. Each
// placeholder becomes the server flag the CLI gives (Flags.Server) and the
// server's DSN, and a step without a server names study run's flag the
// CLI gives (Flags.Servers); CheckSteps stands in for servers the same
// way.
func TestStepsSpelledAsTheCLISays(t *testing.T) {
	t.Parallel()
	flags := Flags{Server: "--server-of-step", Servers: "--servers-of-study"}
	tests := []struct {
		name, line string
		servers    Servers
		want       []string // the step's arguments
		why        string   // or why it cannot run here
	}{
		{"two PostgreSQL servers", "pg {pg} -c 4", Servers{PG: []string{"postgres://a/b", "postgres://c/d"}},
			[]string{"pg", "--server-of-step", "postgres://a/b", "--server-of-step", "postgres://c/d", "-c", "4"}, ""},
		{"the legacy ClickHouse", "dbmeter ch insert {clickhouse-legacy} --rows 10", Servers{CHLegacy: "clickhouse://legacy:9000/default"},
			[]string{"ch", "insert", "--server-of-step", "clickhouse://legacy:9000/default", "--rows", "10"}, ""},
		{"a modern ClickHouse given", "ch query {clickhouse}", Servers{PG: []string{"postgres://a/b"}, CHModern: "tcp://m:9000"},
			[]string{"ch", "query", "--server-of-step", "tcp://m:9000"}, ""},
		{"no PostgreSQL server", "pg {pg}", Servers{}, nil, "no PostgreSQL server given (--servers-of-study postgres://… or DBMETER_PG_DSN)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Servers: tt.servers, Flags: flags}
			args, _, stop, why := expand(tt.line, o)
			if stop != nil {
				stop()
			}
			if why != tt.why || !slices.Equal(args, tt.want) {
				t.Errorf("expand(%q) = %q, why %q; want %q, why %q", tt.line, args, why, tt.want, tt.why)
			}
		})
	}
	s, err := Parse("t.yaml", []byte(strings.Replace(goodStudy, "run: null --duration 100ms", "run: pg {pg} -c 4", 1)))
	if err != nil {
		t.Fatal(err)
	}
	var parsed [][]string
	CheckSteps(s, flags, func(args []string) error { parsed = append(parsed, args); return nil })
	if want := [][]string{{"pg", "--server-of-step", "postgres://check@127.0.0.1/check", "-c", "4"}}; !slices.EqualFunc(parsed, want, slices.Equal) {
		t.Errorf("CheckSteps parsed %q, want %q", parsed, want)
	}
}
