package study

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// CheckServers refuses a given server no step could use as one usage line
// naming the flag, the password masked, and lets through what a step can
// take; the environment's servers are left to the steps. (A ClickHouse too
// old for {clickhouse} needs a server: internal/cli's
// TestStudyOldClickHouseAsModern.)
func TestCheckServers(t *testing.T) {
	t.Parallel()
	s := &Study{Steps: []Step{{Run: "pg {pg} -S"}, {Run: "ch insert {clickhouse-legacy}"}}}
	f := Flags{Server: "--dsn", Servers: "--dsn"}
	tests := []struct {
		name string
		sv   Servers
		want string // in the error; "" for none
	}{
		{"PostgreSQL, bad port", Servers{Given: true, PG: []string{"postgres://u:hunter2@db:port/x"}}, "--dsn postgres://u:xxxxx@db:port/x: not a PostgreSQL address"},
		{"ClickHouse, bad parameter", Servers{Given: true, CHLegacy: "clickhouse://u:hunter2@db:9000/default?compress=zip"}, "--dsn clickhouse://u:xxxxx@db:9000/default?compress=zip: not a ClickHouse address"},
		{"good ones", Servers{Given: true, PG: []string{"postgres://u:hunter2@db/x"}, CHLegacy: "tcp://db:9000?password=hunter2"}, ""},
		{"the environment's, unchecked", Servers{PG: []string{"postgres://u:hunter2@db:port/x"}}, ""},
		{"a modern ClickHouse no step uses is not asked", Servers{Given: true, CHModern: "tcp://127.0.0.1:1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckServers(context.Background(), s, tt.sv, f, time.Second)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "hunter2") || !usage.Is(err)):
				t.Errorf("err = %v, want a usage error with %q and no password", err, tt.want)
			}
		})
	}
}
