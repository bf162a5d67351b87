package insert

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/load"
)

// externalInserter is one connection of a client that runs outside
// dbmeter: one worker process (internal/extworker) that was handed the
// run's rows before the run, told per block which one to insert.
type externalInserter struct {
	pool   *extworker.Pool
	w      *extworker.Proc
	buf    []byte
	client time.Duration // the worker's own timing of the last block
	ok     bool          // the last operation succeeded
	err    error         // and if not, why
}

var (
	_ ch.Inserter  = (*externalInserter)(nil)
	_ ch.Committer = (*externalInserter)(nil)
	_ clientTimed  = (*externalInserter)(nil)
)

// clientTimed is an inserter that knows how long its client took for the
// last block by the client's own clock: the phase extworker.Client.
type clientTimed interface{ clientTime() time.Duration }

func openExternal(ctx context.Context, o Options) (ch.Inserter, error) {
	if o.Workers == nil {
		return nil, fmt.Errorf("external client opened without its workers")
	}
	w, err := o.Workers.Get(ctx)
	if err != nil {
		return nil, err
	}
	return &externalInserter{pool: o.Workers, w: w}, nil
}

// Build names the block: the worker holds its rows already.
func (x *externalInserter) Build(_ context.Context, _ string, b *ch.Block) (ch.Batch, error) {
	x.buf = append(x.buf[:0], `{"op":"insert","block":`...)
	x.buf = strconv.AppendInt(x.buf, int64(b.Index), 10)
	x.buf = append(x.buf, `,"rows":`...)
	x.buf = strconv.AppendInt(x.buf, int64(b.Rows), 10)
	x.buf = append(x.buf, '}')
	return x, nil
}

// Send sends the request Build made and waits for the worker's reply.
func (x *externalInserter) Send(ctx context.Context) error { return x.call(ctx, x.buf) }

func (x *externalInserter) call(ctx context.Context, req []byte) error {
	r, err := x.w.Call(ctx, req)
	if err == nil {
		x.client = time.Duration(r.Ns)
		err = r.Err(x.pool.Spec().Name, x.pool.Spec().Secrets)
	}
	x.ok, x.err = err == nil, err
	return err
}

func (x *externalInserter) clientTime() time.Duration { return x.client }

var commitRequest = []byte(`{"op":"commit"}`)

// Commit ends an INSERT the worker left open by streaming.
func (x *externalInserter) Commit(ctx context.Context) error { return x.call(ctx, commitRequest) }

// Close hands the worker back. After a failure it is told to drop its
// database connection, as a Go path drops one that failed, and is kept:
// only a worker that died, hung or broke the protocol is replaced.
func (x *externalInserter) Close() error {
	if !x.ok && !x.w.Broken() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		x.w.Reset(ctx)
		cancel()
	}
	x.pool.Put(x.w, x.ok, x.err)
	return nil
}

// externalRingRows bounds the rows handed to each worker process: every
// worker holds them in its own language's arrays (a PHP array of a 1.4 KB
// row takes about 3 KB), so the run cycles through fewer distinct rows
// than a Go path's 400,000; at least one block.
const externalRingRows = 20_000

// externalRing is how many blocks of a ring of n are handed to workers.
func externalRing(n, batch int) int { return max(1, min(n, externalRingRows/max(batch, 1))) }

// externalRun is what a run of an external client needs around load.Run:
// a directory of its own for the worker script and the rows file, and the
// pool of worker processes.
type externalRun struct {
	dir  string
	pool *extworker.Pool
	// start is how long the workers took to start and answer their setup,
	// one after the other (the interpreter's start-up, its extension
	// loaded, its connection made): what a whole-process time such as
	// seed 002's hyperfine figures adds to the operations.
	start time.Duration
}

// pings is how many empty exchanges each worker makes before the run, to
// measure the protocol's round trip.
const pings = 500

// startExternal writes the rows and the script, starts workers processes
// and measures their round trip. It returns the ring the run cycles
// through: the blocks handed over.
func startExternal(ctx context.Context, c Config, name string, cl Client, ring []*ch.Block, workers int) (*externalRun, []*ch.Block, error) {
	ring = ring[:externalRing(len(ring), c.Batch)]
	dir, err := os.MkdirTemp("", "dbmeter-worker-")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	x := &externalRun{dir: dir}
	fail := func(err error) (*externalRun, []*ch.Block, error) {
		x.close()
		return nil, nil, err
	}
	argv, err := cl.External.Argv(dir, c.WorkerCmd, c.Getenv)
	if err != nil {
		return fail(err)
	}
	rows := filepath.Join(dir, "rows.jsonl")
	if err := ch.WriteWorkerRows(rows, ring); err != nil {
		return fail(err)
	}
	conn, err := c.DSN.WorkerConn(c.NoDelay)
	if err != nil {
		return fail(err)
	}
	x.pool = extworker.NewPool(extworker.Spec{
		Name: name, Argv: argv, Secrets: c.DSN.Secrets(), OpTimeout: c.WorkerTimeout,
		Setup: insertSetup{WorkerConn: conn, Family: "ch-insert", Table: c.Table.String(), Columns: ring[0].Names(),
			Types: types(ring[0]), RowsFile: rows, Batch: c.Batch, BlocksPerInsert: c.BlocksPerInsert},
	})
	t0 := time.Now()
	if err := x.pool.Prestart(ctx, workers, 0); err != nil {
		return fail(err)
	}
	x.start = time.Since(t0)
	// The workers now started are pooled: this measures their round trip.
	if err := x.pool.Prestart(ctx, workers, pings); err != nil {
		return fail(err)
	}
	return x, ring, nil
}

// insertSetup is the setup a `ch insert` worker gets.
type insertSetup struct {
	ch.WorkerConn
	Family          string   `json:"family"`
	Table           string   `json:"table"`
	Columns         []string `json:"columns"`
	Types           []string `json:"types"`
	RowsFile        string   `json:"rows_file"`
	Batch           int      `json:"batch"`
	BlocksPerInsert int      `json:"blocks_per_insert"`
}

func types(b *ch.Block) []string {
	out := make([]string, len(b.Columns))
	for i, c := range b.Columns {
		out[i] = c.Type
	}
	return out
}

func (x *externalRun) close() {
	if x.pool != nil {
		x.pool.Close()
	}
	os.RemoveAll(x.dir)
}

// phases are the phases of an external client's run: the worker's own
// timing beside build and send as dbmeter saw them.
func externalPhases(cfg load.Config) load.Config {
	cfg.Phases = append(append([]string(nil), Phases...), extworker.Client)
	return cfg
}
