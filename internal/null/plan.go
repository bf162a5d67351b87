package null

import (
	"context"
	"maps"
	"strconv"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Options is one null benchmark: the target's behaviour and the load.
type Options struct {
	Target Config
	Load   load.Config
	Repeat int
	// Search, when set, finds the highest rate meeting its objective
	// instead of running at Load.Rate.
	Search *capacity.Search
	// Params are the settings recorded in every run.
	Params map[string]string
}

// Validate reports the first setting that cannot work.
func (o Options) Validate() error {
	if err := o.Target.Validate(); err != nil {
		return err
	}
	return o.Load.Validate()
}

// NewPlan returns the runs o asks for: one step, repeated.
func NewPlan(o Options) (plan.Plan, error) {
	if err := o.Validate(); err != nil {
		return plan.Plan{}, err
	}
	cfg := o.Load
	cfg.InProcessTarget = true
	st := plan.Step{Target: "null", Workload: Op, Run: func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
		cfg := cfg
		cfg.Seed = r.Seed
		if r.Rate > 0 {
			cfg.Rate = r.Rate
		}
		target := New(o.Target)
		if cfg.Sleep != nil {
			target.WithSleep(cfg.Sleep) // a test's clock
		}
		res, err := load.Run(ctx, cfg, []string{Op}, target.NewWorker, r.Watch)
		if err != nil {
			return nil, err
		}
		params := maps.Clone(o.Params)
		if r.Rate > 0 {
			params["rate"] = strconv.FormatFloat(r.Rate, 'f', -1, 64)
		}
		run := res.Fill(result.Run{Target: "null", Workload: Op, Params: params, Repeat: r.N}, cfg, 0)
		if !cfg.Open() && cfg.Workers == 1 && o.Target == (Config{}) && run.Ops > 0 {
			FigureDeclarations().Set(&run, "overhead_ns_per_op", run.DurationS*1e9/float64(run.Ops))
		}
		return []result.Run{run}, nil
	}}
	return plan.Plan{Family: "null", Steps: []plan.Step{st}, Repeat: o.Repeat, Seed: o.Load.Seed, Search: o.Search}, nil
}

// FigureDeclarations declares the extra figures null and calibrate runs
// write, with how the shards of one test merge them.
func FigureDeclarations() result.Declarations {
	return result.Declarations{
		"overhead_ns_per_op": result.Mean("ns", "ops"),
		"clock_cost_ns":      result.Mean("ns", "ops"),
	}
}
