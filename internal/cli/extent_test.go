package cli

import (
	"strconv"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg"
)

// A command's default run is its declared extent (repetitions of a
// shorter window) only when the user set no extent of their own: a command
// that says how long or how often to run runs exactly that.
func TestDefaultExtent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantRepeat int
		wantDur    time.Duration
	}{
		{"nothing given: the default experiment", nil, 5, 8 * time.Second},
		{"a duration: once, that long", []string{"--duration", "3s"}, 1, 3 * time.Second},
		{"a repeat: that many of the flag's duration", []string{"--repeat", "2"}, 2, load.DefaultDuration},
		{"a count: once", []string{"--count", "100"}, 1, load.DefaultDuration},
		{"a row count (also): once", []string{"--rows", "1000"}, 1, load.DefaultDuration},
		{"other flags leave the default", []string{"--workers", "2"}, 5, 8 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			var rf runFlags
			rf.bind(fs, load.DefaultConfig())
			declare(fs, opt{"Rows", "rows", "", new(int64), ""})
			rf.defaultExtent(load.Extent{Repeat: 5, Duration: 8 * time.Second, Also: []string{"Rows"}})
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			rf.applyExtent()
			if rf.repeat != tt.wantRepeat || rf.cfg.Duration != tt.wantDur {
				t.Errorf("repeat %d × %s, want %d × %s", rf.repeat, rf.cfg.Duration, tt.wantRepeat, tt.wantDur)
			}
		})
	}
}

// pg's default run is its experiment (5 × -T 2, recorded as if typed) only
// when the user gave no extent of their own; pgbench's command lines, which
// say -T or -t, run exactly as pgbench runs them.
func TestPGDefaultRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		args        []string
		wantRepeat  int
		wantSeconds int // 0: counted by -t
	}{
		{"nothing given: the default experiment", nil, pg.DefaultRepeat, pg.DefaultSeconds},
		{"other flags leave the default", []string{"-S", "-c", "4", "-R", "100", "-L", "5"}, pg.DefaultRepeat, pg.DefaultSeconds},
		{"-T: once, that long", []string{"-T", "10"}, 1, 10},
		{"-t: once, that many", []string{"-t", "100"}, 1, 0},
		{"--repeat: that many of -t 10, pgbench's default", []string{"--repeat", "3"}, 3, 0},
		{"-T and --repeat: as given", []string{"-T", "1", "--repeat", "4"}, 4, 1},
		{"-i: initialises only", []string{"-i"}, 1, 0},
		{"a capacity search: its own steps", []string{"--find-max-rate"}, 1, 0},
		{"a shard: as its peers", []string{"--shard", "0/2"}, 1, 0},
		{"--aggregate-interval: a multiple of the user's -T", []string{"-l", "--aggregate-interval", "1"}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f pgFlags
			fs := pflag.NewFlagSet("pg", pflag.ContinueOnError)
			f.bind(fs)
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			if err := f.defaultRun(); err != nil {
				t.Fatal(err)
			}
			timed := fs.Changed("time") // pg.Command reads -T as given: a timed run
			if f.Repeat != tt.wantRepeat || timed != (tt.wantSeconds > 0) || timed && f.Seconds != tt.wantSeconds {
				t.Errorf("repeat %d, -T %d (given %v); want repeat %d, -T %d", f.Repeat, f.Seconds, timed, tt.wantRepeat, tt.wantSeconds)
			}
			if p := flagParams(fs); p["repeat"] != strconv.Itoa(f.Repeat) || p["time"] != strconv.Itoa(f.Seconds) {
				t.Errorf("the runs would record repeat %q and time %q, not what runs (%d × %d s)", p["repeat"], p["time"], f.Repeat, f.Seconds)
			}
		})
	}
}

// --workers and --rate take one value or a list; one value records in the
// run's params as the plain number it is, as before they took lists.
func TestNumberListsRecordAsTyped(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args          []string
		workers, rate string
	}{
		{nil, "1", "0"},
		{[]string{"--workers", "4", "--rate", "100"}, "4", "100"},
		{[]string{"--workers", "1,2", "--rate", "50,100.5"}, "1,2", "50,100.5"},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		var rf runFlags
		rf.bind(fs, load.DefaultConfig())
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		p := flagParams(fs)
		if p["workers"] != tt.workers || p["rate"] != tt.rate {
			t.Errorf("%v: params workers %q rate %q, want %q %q", tt.args, p["workers"], p["rate"], tt.workers, tt.rate)
		}
	}
}
