package cli

import (
	"slices"
	"testing"
)

// A study's servers come from study run's --dsn, else the environment:
// the modern ClickHouse from --dsn, DBMETER_CLICKHOUSE_MODERN_DSN, or
// DBMETER_CLICKHOUSE_DSN unless that is the legacy 18.16 server (as
// scripts/dev-services.sh exports it); else the stand-in ("").
func TestStudyServers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		dsns       []string
		env        map[string]string
		pg         []string
		legacy, ch string
	}{
		{"none", nil, nil, nil, "", ""},
		{"modern", nil, map[string]string{"DBMETER_CLICKHOUSE_MODERN_DSN": "tcp://m"}, nil, "", "tcp://m"},
		{"dsn is another server", nil, map[string]string{"DBMETER_CLICKHOUSE_DSN": "tcp://d", "DBMETER_CLICKHOUSE_LEGACY_DSN": "tcp://l"}, nil, "tcp://l", "tcp://d"},
		{"dsn is the legacy server", nil, map[string]string{"DBMETER_CLICKHOUSE_DSN": "tcp://l", "DBMETER_CLICKHOUSE_LEGACY_DSN": "tcp://l"}, nil, "tcp://l", ""},
		{"flags before the environment", []string{"postgres://a/x", "clickhouse://c/y", "postgres://b/x"},
			map[string]string{"DBMETER_PG_DSN": "postgres://e/x", "DBMETER_CLICKHOUSE_MODERN_DSN": "tcp://m"},
			[]string{"postgres://a/x", "postgres://b/x"}, "", "clickhouse://c/y"},
		{"the environment's PostgreSQL", nil, map[string]string{"DBMETER_PG_DSN": "postgres://e/x"}, []string{"postgres://e/x"}, "", ""},
	}
	for _, tt := range tests {
		got := studyServers(tt.dsns, func(k string) string { return tt.env[k] })
		if !slices.Equal(got.PG, tt.pg) || got.CHLegacy != tt.legacy || got.CHModern != tt.ch {
			t.Errorf("%s: %+v, want pg %q, legacy %q, modern %q", tt.name, got, tt.pg, tt.legacy, tt.ch)
		}
	}
}
