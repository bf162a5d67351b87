package query

import (
	"strings"
	"testing"
)

// A capacity search finds one query's capacity: Validate refuses it over
// a query file's mix, in {Field} words, and takes it for one query.
func TestConfigValidateSearch(t *testing.T) {
	t.Parallel()
	mix := []MixQuery{{Name: "q1", SQL: "SELECT 1", Weight: 1, Line: 1}}
	tests := []struct {
		name string
		edit func(c *Config)
		want string // "" is valid
	}{
		{"one query", func(*Config) {}, ""},
		{"one query searched", func(c *Config) { c.Search = true }, ""},
		{"a mix", func(c *Config) { c.SQL, c.Mix = "", mix }, ""},
		{"a mix searched", func(c *Config) { c.SQL, c.Mix, c.Search = "", mix, true }, "{Find} searches one query's capacity, not a {QueriesFile} mix: run the mix at a {Rate}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := baseConfig()
			tt.edit(&c)
			err := c.Validate()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}
