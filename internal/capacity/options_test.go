package capacity_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// TestOptionsResolve: a search's flags without Find, or a
// search that cannot run, are usage errors; a search sets one step's
// window and starts from the rate given, else from DefaultStart.
func TestOptionsResolve(t *testing.T) {
	ok := capacity.Options{Find: true, SLO: "p99<15ms", Step: 2 * time.Second, Precision: 0.02}
	tests := []struct {
		name      string
		o         capacity.Options
		given     []string
		want      string
		wantStart float64
	}{
		{"no search", capacity.Options{}, nil, "", 0},
		{"slo without search", capacity.Options{SLO: "p99<1ms"}, []string{"SLO"}, "{SLO} needs {Find}", 0},
		{"search without slo", capacity.Options{Find: true, Step: time.Second, Precision: 0.02}, nil, "{Find} needs {SLO}", 0},
		{"bad slo", capacity.Options{Find: true, SLO: "p99>1ms", Step: time.Second, Precision: 0.02}, nil, "{SLO}:", 0},
		{"zero step", capacity.Options{Find: true, SLO: "p99<1ms", Precision: 0.02}, nil, "{Step} must be positive", 0},
		{"precision of one", capacity.Options{Find: true, SLO: "p99<1ms", Step: time.Second, Precision: 1}, nil, "{Precision} must be between 0 and 1", 0},
		{"count", ok, []string{"Count"}, "drop {Count}", 0},
		{"default start", ok, nil, "", capacity.DefaultStart},
		{"start at the rate given", ok, []string{"Rate"}, "", 250},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := load.DefaultConfig()
			cfg.Rate, cfg.Count = 250, 0
			s, err := tt.o.Resolve(&cfg, func(f string) bool { return slices.Contains(tt.given, f) })
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) || !usage.Is(err) {
					t.Fatalf("error %v, want a usage error containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (s == nil) != (tt.wantStart == 0) {
				t.Fatalf("search %+v, want one only with {Find}", s)
			}
			if s != nil && (s.Start != tt.wantStart || cfg.Rate != tt.wantStart || cfg.Duration != tt.o.Step) {
				t.Errorf("start %g, rate %g, window %s; want %g, %g, %s", s.Start, cfg.Rate, cfg.Duration, tt.wantStart, tt.wantStart, tt.o.Step)
			}
		})
	}
}
