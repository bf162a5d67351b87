package clients

import (
	"context"
	"errors"
	"fmt"
	"time"

	chgo "github.com/ClickHouse/ch-go"
	"github.com/ClickHouse/ch-go/proto"

	"github.com/dbmeter/dbmeter/internal/ch/query"
)

// chgoQuerier is ch-go, ClickHouse's low-level columnar client: each
// result block arrives as proto columns ([]uint64, []float64, strings in
// one buffer), so column decode walks real column blocks and row decode
// walks the same blocks row by row. ch-go binds on the server: with
// Prepared each ? becomes a typed query parameter {pN:Type} that the
// server substitutes after parsing (protocol revision 54459 and later),
// where the other clients bind on the client. Its pool is
// dbmeter's own (chgopool.go), because ch-go's chpool needs a module
// dbmeter does not carry and has no max-idle knob.
type chgoQuerier struct {
	decode query.Decode
	pool   *chgoPool
}

func openCHGo(_ context.Context, o query.Options) (query.Querier, error) {
	d := query.NewDialer()
	opts, err := o.DSN.CHGo(d.DialContext)
	if err != nil {
		return nil, err
	}
	if opts.DialTimeout == 0 {
		opts.DialTimeout = 10 * time.Second
	}
	return &chgoQuerier{decode: o.Decode, pool: newCHGoPool(opts, o.Pool, d)}, nil
}

// Query implements query.Querier. Decode time is the time spent walking
// each block in OnResult: ch-go has already read the block off the wire
// into its columns, which is receive work interleaved with the network.
func (q *chgoQuerier) Query(ctx context.Context, text string, args ...any) (query.QueryStats, error) {
	var params []proto.Parameter
	if len(args) > 0 {
		body, ps, err := query.Parameterize(text, args)
		if err != nil {
			return query.QueryStats{}, err
		}
		text = body
		for _, p := range ps {
			params = append(params, proto.Parameter{Key: p.Name, Value: p.Value})
		}
	}
	st, err := q.query(ctx, text, params)
	if errors.Is(err, errStale) {
		// An idle connection the server had closed (it restarted): ch-go
		// learns it only by using it. Retry once on a fresh connection, as
		// database/sql does on driver.ErrBadConn and v2 by checking each
		// connection it takes from its pool.
		st, err = q.query(ctx, text, params)
	}
	return st, err
}

// errStale marks a query that failed on an idle connection before the
// server answered anything.
var errStale = errors.New("stale idle connection")

func (q *chgoQuerier) query(ctx context.Context, text string, params []proto.Parameter) (query.QueryStats, error) {
	c, err := q.pool.acquire(ctx)
	if err != nil {
		return query.QueryStats{}, err
	}
	var (
		res    proto.Results
		cols   []proto.ColResult
		st     query.QueryStats
		decode time.Duration
		t      query.Tally
	)
	err = c.client.Do(ctx, chgo.Query{
		Body:       text,
		QueryID:    query.QueryID(ctx),
		Parameters: params,
		Result:     res.Auto(),
		OnResult: func(_ context.Context, b proto.Block) error {
			start := time.Now()
			if len(cols) != len(res) {
				cols = cols[:0]
				for _, r := range res {
					cols = append(cols, r.Data)
				}
			}
			bt := query.WalkBlock(q.decode, cols)
			t.Sum += bt.Sum
			t.Bytes += bt.Bytes
			decode += time.Since(start)
			st.Rows += int64(b.Rows)
			return nil
		},
	})
	broken := err != nil && !chgo.IsException(err)
	q.pool.release(c, broken)
	if broken && c.reused && st.Rows == 0 && ctx.Err() == nil && len(cols) == 0 {
		return st, fmt.Errorf("%w: %w", errStale, err)
	}
	if err != nil {
		if chgo.IsException(err) {
			err = query.ServerError(err)
		}
		return st, err
	}
	st.Bytes, st.DecodeNs = t.Bytes, int64(decode)
	query.Keep(t)
	return st, nil
}

func (q *chgoQuerier) Pool() query.PoolStats { return q.pool.stats() }
func (q *chgoQuerier) Close() error          { q.pool.close(); return nil }
