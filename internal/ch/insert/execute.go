package insert

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/redact"
)

// Execute runs c against the server it names, reached within
// connectTimeout, into the output open opens. The clients the server
// refuses and the runs that fail are said on stderr, each on a line of its
// own, as they happen; the error sums them up (Outcome). Its errors name
// settings as {Field}s, and mask the DSN's secrets.
func Execute(ctx context.Context, c Config, connectTimeout time.Duration, stderr io.Writer, open plan.OpenOutput) error {
	secrets := c.DSN.Secrets()
	version, err := ch.Reach{DSN: c.DSN, ConnectTimeout: connectTimeout}.Version(ctx)
	if err != nil {
		return redact.UsageErr(err, secrets...)
	}
	p, err := Prepare(ctx, "ch", c, version)
	if err != nil {
		return redact.UsageErr(err, secrets...)
	}
	defer p.Close()
	say(stderr, p.Refused, secrets)
	out, err := open("", secrets...)
	if err != nil {
		return err
	}
	perr := plan.Execute(ctx, p.Plan, out)
	say(stderr, plan.Errors(perr), secrets)
	if len(out.Doc().Runs) == 0 {
		out.Abort()
		return NoRun(perr, secrets...)
	}
	return p.Outcome(perr, out.Finish(ctx))
}

// say prints each error on a line of its own, the refusals of clients too
// new for the server folded into one.
func say(w io.Writer, errs []error, secrets []string) {
	for _, err := range ch.GroupTooOld(errs) {
		fmt.Fprintln(w, "dbmeter: "+redact.Line(redact.Err(err, secrets...)))
	}
}
