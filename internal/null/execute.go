package null

import (
	"context"

	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Execute runs the plan o asks for into the output open opens; options
// that contradict each other are the user's mistake, refused before the
// outputs are opened.
func Execute(ctx context.Context, o Options, open plan.OpenOutput) error {
	p, err := NewPlan(o)
	if err != nil {
		return usage.Wrap(err)
	}
	out, err := open("")
	if err != nil {
		return err
	}
	return out.Execute(ctx, p)
}
