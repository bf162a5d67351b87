package capacity

import (
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Options are a search as the open-loop families take it on the command
// line (--find-max-rate, --slo, --step-duration, --precision).
type Options struct {
	Find      bool
	SLO       string
	Step      time.Duration
	Precision float64
}

// Resolve returns the search the options ask for, or nil, and sets cfg's
// window to one step. given says whether the user set a field of Options
// or of cfg (Rate: when given, it is where the ramp starts; Count).
// Mistakes are usage errors naming those fields as {Field}, which the CLI
// spells as its flags.
func (o Options) Resolve(cfg *load.Config, given func(field string) bool) (*Search, error) {
	if !o.Find {
		for _, n := range []string{"SLO", "Step", "Precision"} {
			if given(n) {
				return nil, usage.Errorf("{%s} needs {Find}", n)
			}
		}
		return nil, nil
	}
	if o.SLO == "" {
		return nil, usage.Errorf("{Find} needs {SLO}, e.g. {SLO} 'p99<15ms'")
	}
	slo, err := ParseSLO(o.SLO)
	if err != nil {
		return nil, usage.Errorf("{SLO}: %v", err)
	}
	switch {
	case o.Step <= 0:
		return nil, usage.Errorf("{Step} must be positive, got %s", o.Step)
	case o.Precision <= 0 || o.Precision >= 1:
		return nil, usage.Errorf("{Precision} must be between 0 and 1, got %g", o.Precision)
	case given("Count"):
		return nil, usage.Errorf("{Find} runs timed steps: drop {Count}")
	}
	s := &Search{SLO: slo, Start: cfg.Rate, Precision: o.Precision, MaxInFlight: cfg.MaxInFlight, Step: o.Step}
	if !given("Rate") {
		s.Start = DefaultStart
	}
	cfg.Rate = s.Start
	cfg.Duration, cfg.Count = o.Step, 0
	return s, nil
}
