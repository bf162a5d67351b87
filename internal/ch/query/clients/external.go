package clients

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/extworker"
)

// external is a client that runs as worker processes in another language
// (internal/extworker): one process per connection, each query one request
// to an idle worker (a new one is started when all are busy). Parameters
// are always inlined; the worker walks its library's result as the
// library returns it (decode mode does not apply), and its own timing of
// each query is the phase "client".
func external(name string, w *ch.Worker) query.Client {
	return query.Client{
		Open: func(ctx context.Context, o query.Options) (query.Querier, error) {
			return openExternal(ctx, name, w, o)
		},
		Protocols: []query.Protocol{query.Native},
		Ignores:   externalIgnores,
		External:  true,
		DSN:       w.Honours(),
	}
}

// externalIgnores: the workers are kept while healthy, however many.
func externalIgnores(p query.Pool) []string {
	var out []string
	d := query.DefaultPool()
	if p.MaxOpen != d.MaxOpen {
		out = append(out, query.KnobMaxOpen)
	}
	if p.MaxIdle != d.MaxIdle {
		out = append(out, query.KnobMaxIdle)
	}
	if p.IdleTimeout != d.IdleTimeout {
		out = append(out, query.KnobIdleTimeout)
	}
	if p.Lifetime != d.Lifetime {
		out = append(out, query.KnobLifetime)
	}
	return out
}

// pings is how many empty exchanges measure the protocol's round trip.
const pings = 500

type externalQuerier struct {
	dir  string
	pool *extworker.Pool
}

var (
	_ query.Querier  = (*externalQuerier)(nil)
	_ query.External = (*externalQuerier)(nil)
)

// querySetup is the setup a `ch query` worker gets.
type querySetup struct {
	ch.WorkerConn
	Family string `json:"family"`
}

func openExternal(ctx context.Context, name string, w *ch.Worker, o query.Options) (query.Querier, error) {
	dir, err := os.MkdirTemp("", "dbmeter-worker-")
	if err != nil {
		return nil, err
	}
	q := &externalQuerier{dir: dir}
	argv, err := w.Argv(dir, o.Worker.Cmd, o.Worker.Getenv)
	if err != nil {
		q.Close()
		return nil, err
	}
	conn, err := o.DSN.WorkerConn(true)
	if err != nil {
		q.Close()
		return nil, err
	}
	q.pool = extworker.NewPool(extworker.Spec{Name: name, Argv: argv, Secrets: o.DSN.Secrets(), OpTimeout: o.Worker.Timeout,
		Setup: querySetup{WorkerConn: conn, Family: "ch-query"}})
	if err := q.pool.Prestart(ctx, 1, pings); err != nil {
		q.Close()
		return nil, err
	}
	return q, nil
}

type queryRequest struct {
	Op  string `json:"op"`
	SQL string `json:"sql"`
}

func (q *externalQuerier) Query(ctx context.Context, sql string, args ...any) (query.QueryStats, error) {
	if len(args) > 0 {
		return query.QueryStats{}, fmt.Errorf("external workers take the query text with its parameters inlined: %w", query.ErrUnsupported)
	}
	req, err := json.Marshal(queryRequest{Op: "query", SQL: sql})
	if err != nil {
		return query.QueryStats{}, err
	}
	w, err := q.pool.Get(ctx)
	if err != nil {
		return query.QueryStats{}, err
	}
	r, err := w.Call(ctx, req)
	if err == nil {
		err = r.Err(q.pool.Spec().Name, q.pool.Spec().Secrets)
	}
	q.pool.Put(w, err == nil, err)
	if err != nil {
		return query.QueryStats{}, err
	}
	return query.QueryStats{Rows: r.Rows, Bytes: r.Bytes, ClientNs: r.Ns}, nil
}

func (q *externalQuerier) Workers() *extworker.Pool { return q.pool }

// Pool counts the workers started (each a connection) and those that
// failed; the rest is not observable.
func (q *externalQuerier) Pool() query.PoolStats {
	started, failed := q.pool.Stats()
	return query.PoolStats{Opened: started, Closed: failed, SetupNs: -1, Waits: -1, WaitNs: -1}
}

func (q *externalQuerier) Close() error {
	if q.pool != nil {
		q.pool.Close()
	}
	return os.RemoveAll(q.dir)
}
