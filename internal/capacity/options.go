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
// window to one step. given says whether the user set a flag; rateFlag is
// the family's name for the rate (its value, when given, is where the ramp
// starts). Mistakes are usage errors naming the flags.
func (o Options) Resolve(cfg *load.Config, given func(flag string) bool, rateFlag string) (*Search, error) {
	if !o.Find {
		for _, n := range []string{"slo", "step-duration", "precision"} {
			if given(n) {
				return nil, usage.Errorf("--%s needs --find-max-rate", n)
			}
		}
		return nil, nil
	}
	if o.SLO == "" {
		return nil, usage.Errorf("--find-max-rate needs --slo, e.g. --slo 'p99<15ms'")
	}
	slo, err := ParseSLO(o.SLO)
	if err != nil {
		return nil, usage.Errorf("--slo: %v", err)
	}
	switch {
	case o.Step <= 0:
		return nil, usage.Errorf("--step-duration must be positive, got %s", o.Step)
	case o.Precision <= 0 || o.Precision >= 1:
		return nil, usage.Errorf("--precision must be between 0 and 1, got %g", o.Precision)
	case given("count"):
		return nil, usage.Errorf("--find-max-rate runs timed steps: drop --count")
	}
	s := &Search{SLO: slo, Start: cfg.Rate, Precision: o.Precision, MaxInFlight: cfg.MaxInFlight, Step: o.Step}
	if !given(rateFlag) {
		s.Start = DefaultStart
	}
	cfg.Rate = s.Start
	cfg.Duration, cfg.Count = o.Step, 0
	return s, nil
}
