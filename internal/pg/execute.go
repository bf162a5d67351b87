package pg

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/dbmeter/dbmeter/internal/capacity"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/script"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/storage"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Exec is what running pg needs that only the CLI has.
type Exec struct {
	// Open opens the run's outputs.
	Open plan.OpenOutput
	// Search is the capacity search the command line asks for (nil for
	// none), given the load it starts from.
	Search func(*load.Config) (*capacity.Search, error)
	// ProbeShare is a study's shared probe (storage.Profile.ProbeShare).
	ProbeShare string
	// Quiet is -i's --quiet.
	Quiet bool
}

// Execute runs the command f is, with args its positional arguments (the
// database name): a built-in script shown, -i's initialisation, or the
// benchmark, under a storage profile when one is given. Its errors name
// settings as {Field}s, and mask the servers' secrets.
func (f *Command) Execute(ctx context.Context, args []string, x Exec) (err error) {
	if f.given("ShowScript") {
		text, err := script.ShowBuiltin(f.ShowScript)
		if err != nil {
			return usage.Wrap(err)
		}
		_, err = io.WriteString(f.Stderr, text)
		return err
	}
	p, err := f.Prepare(args)
	if err != nil {
		return usage.Wrap(err)
	}
	defer func() { err = redact.UsageErr(err, p.Secrets...) }()
	search, err := x.Search(p.Load())
	if err != nil {
		return err
	}
	if err := p.Searching(search); err != nil {
		return err
	}
	if f.given("SeedSpec") {
		fmt.Fprintf(f.Stderr, "dbmeter pg: setting random seed to %d\n", f.Seed) // as pgbench says it
	}
	prof, err := storage.ParseSpec(f.StorageProfile, x.ProbeShare)
	if err != nil {
		return err
	}
	if f.Initialize {
		return f.Init(ctx, p, x.Quiet)
	}
	var sess *storage.Session
	if prof != nil {
		if sess, err = f.placeStorage(ctx, p, prof); err != nil {
			return err
		}
		defer func() { err = errors.Join(err, sess.Close()) }()
	}
	out, err := x.Open("", p.Secrets...)
	if err != nil {
		return err
	}
	pl := f.Plan(p)
	if sess != nil {
		out.Doc().Env.Disk.Storage = sess.Record
		pl = sess.Counted(pl)
	}
	return out.Execute(ctx, pl)
}

// placeStorage places the cluster the run connects to under profile
// prof: its postmaster and every process it forked, and the ones it forks
// later, which start in its cgroup.
func (f *Command) placeStorage(ctx context.Context, p *Prepared, prof *storage.Profile) (*storage.Session, error) {
	eps, err := p.Endpoints()
	if err != nil {
		return nil, err
	}
	pl, err := server.Place(f.StorageServer, eps[0])
	if err != nil {
		return nil, err
	}
	return storage.Open(ctx, f.Stderr, prof, pl.DataDir, pl.Target, pl.PIDs...)
}
