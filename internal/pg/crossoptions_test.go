package pg

import (
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// The checks across options that pgbench does not make, and dbmeter's
// own (outputs, a storage profile, a capacity search), are the Command's,
// in {Field} words, before anything connects.
func TestCommandCrossOptions(t *testing.T) {
	t.Parallel()
	base := Command{Clients: 1, Jobs: 1, PerClient: 10, MaxTries: 1, ConnectTimeout: time.Second,
		Protocol: "simple", SeedSpec: "1", Drivers: []string{"pgx"}, DSNs: []string{"postgres://u@h:5432/db"}}
	tests := []struct {
		name string
		edit func(c *Command)
		want string // "" is a command line pg takes
	}{
		{"as given", func(*Command) {}, ""},
		{"progress timestamp alone", func(c *Command) { c.ProgressStamp = true }, "{ProgressStamp} is allowed only under {Progress}"},
		{"progress timestamp under progress", func(c *Command) { c.ProgressStamp, c.Progress = true, 5 }, ""},
		{"-i with outputs", func(c *Command) { c.Initialize, c.Outputs = true, true }, "{Initialize} only initialises the tables and writes no result: leave out {JSON}, {HTML}, {MD} and {CSV}"},
		{"a run with outputs", func(c *Command) { c.Outputs = true }, ""},
		{"-i under a storage profile", func(c *Command) { c.Initialize, c.StorageProfile = true, "hdd" }, "{Initialize} loads the tables without a storage profile: give {StorageProfile} to the runs"},
		{"a run under a storage profile", func(c *Command) { c.StorageProfile = "hdd" }, ""},
		{"a storage profile over two servers", func(c *Command) {
			c.StorageProfile, c.DSNs = "hdd", []string{"postgres://u@a:5432/db", "postgres://u@b:5432/db"}
		}, "{StorageProfile} applies to one server at a time: give one {DSNs}"},
		{"two servers without one", func(c *Command) { c.DSNs = []string{"postgres://u@a:5432/db", "postgres://u@b:5432/db"} }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := base
			tt.edit(&c)
			_, err := c.Prepare(nil)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Prepare: %v, want %q", err, tt.want)
			}
		})
	}
}

// A capacity search finds one rate: it takes one -c and one -j.
func TestPreparedSearching(t *testing.T) {
	t.Parallel()
	search := &capacity.Search{}
	tests := []struct {
		name          string
		clients, jobs []int
		search        *capacity.Search
		want          string
	}{
		{"one variant", []int{4}, []int{2}, search, ""},
		{"a sweep of clients", []int{1, 4}, []int{1}, search, "{Find} searches one {Clients} and {Jobs} at a time: give each one value"},
		{"a sweep of jobs", []int{4}, []int{1, 2}, search, "{Find} searches one {Clients} and {Jobs}"},
		{"a sweep, no search", []int{1, 4}, []int{1}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Command{ClientsList: tt.clients, JobsList: tt.jobs, PerClient: 10, MaxTries: 1, ConnectTimeout: time.Second,
				Protocol: "simple", SeedSpec: "1", Drivers: []string{"pgx"}, DSNs: []string{"postgres://u@h:5432/db"}}
			p, err := c.Prepare(nil)
			if err != nil {
				t.Fatal(err)
			}
			err = p.Searching(tt.search)
			if tt.want == "" {
				if err != nil || p.Search != tt.search {
					t.Errorf("Searching: %v, search %v; want it taken", err, p.Search)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err) {
				t.Errorf("Searching: %v; want a usage error with %q", err, tt.want)
			}
		})
	}
}
