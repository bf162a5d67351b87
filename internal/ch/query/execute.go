package query

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/metrics"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Exec is what running a query command needs besides its Config.
type Exec struct {
	// Search is the capacity search asked for, nil for none.
	Search *capacity.Search
	// ConnectTimeout bounds reaching the server for its version.
	ConnectTimeout time.Duration
	// PprofAddr, when not "", serves net/http/pprof during the run.
	PprofAddr string
	// Stderr gets the notes on the plan.
	Stderr io.Writer
	// Open opens the run's outputs.
	Open plan.OpenOutput
}

// Execute runs c against the server it names, into the output x opens.
// Its errors name settings as {Field}s, and mask the DSN's secrets.
func Execute(ctx context.Context, c Config, x Exec) error {
	secrets := c.DSN.Secrets()
	c.Search = x.Search != nil
	if err := c.Validate(); err != nil {
		return usage.Wrap(err)
	}
	version, err := ch.Reach{DSN: c.DSN, ConnectTimeout: x.ConnectTimeout}.Version(ctx)
	if err != nil {
		return redact.UsageErr(err, secrets...)
	}
	p, err := Prepare(ctx, "ch", c, version)
	if err != nil {
		return redact.UsageErr(err, secrets...)
	}
	for _, n := range p.Notes {
		fmt.Fprintln(x.Stderr, "dbmeter: "+n)
	}
	stop, err := metrics.ServePprof(x.PprofAddr, x.Stderr)
	if err != nil {
		return err
	}
	defer stop()
	out, err := x.Open("", secrets...)
	if err != nil {
		return err
	}
	p.Plan.Search = x.Search
	return redact.UsageErr(out.Execute(ctx, p.Plan), secrets...)
}
