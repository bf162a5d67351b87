package driver

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
)

// A Pipeliner can send statements without waiting for each result
// (libpq's pipeline mode, pgbench's \startpipeline … \endpipeline).
type Pipeliner interface {
	// Prepare prepares st by its name outside any pipeline (prepared mode).
	Prepare(ctx context.Context, st *Stmt) error
	StartPipeline(ctx context.Context) error
	// Queue sends st with args without reading its result.
	Queue(st *Stmt, args []any) error
	// EndPipeline syncs, reads every queued result and leaves pipeline
	// mode; it returns the rows the statements returned and the first
	// error.
	EndPipeline(ctx context.Context) (rows int64, err error)
}

var _ Pipeliner = (*pgxSession)(nil)

// Prepare prepares st once per session.
func (s *pgxSession) Prepare(ctx context.Context, st *Stmt) error {
	if s.prepared[st.Name] {
		return nil
	}
	if _, err := s.conn.Prepare(ctx, st.Name, st.SQL); err != nil {
		return err
	}
	s.prepared[st.Name] = true
	return nil
}

func (s *pgxSession) StartPipeline(ctx context.Context) error {
	if s.mode == ModeSimple {
		return errors.New("cannot use pipeline mode with the simple query protocol")
	}
	s.pipe = s.conn.PgConn().StartPipeline(ctx)
	s.queued = 0
	return nil
}

func (s *pgxSession) Queue(st *Stmt, args []any) error {
	if s.mode == ModePrepared {
		s.pipe.SendQueryPrepared(st.Name, textArgs(args), nil, nil)
	} else {
		s.pipe.SendQueryParams(st.SQL, textArgs(args), nil, nil, nil)
	}
	s.queued++
	return nil
}

func (s *pgxSession) EndPipeline(ctx context.Context) (int64, error) {
	p := s.pipe
	s.pipe = nil
	if err := p.Sync(); err != nil {
		p.Close()
		return 0, err
	}
	var rows int64
	var first error
	for {
		r, err := p.GetResults()
		if err != nil {
			if first == nil {
				first = err
			}
			var pe *pgconn.PgError
			if !errors.As(err, &pe) {
				break
			}
			continue
		}
		switch r := r.(type) {
		case *pgconn.ResultReader:
			res := r.Read()
			rows += int64(len(res.Rows))
			if res.Err != nil && first == nil {
				first = res.Err
			}
		case *pgconn.PipelineSync:
			if cerr := p.Close(); cerr != nil && first == nil {
				first = cerr
			}
			return rows, first
		case nil:
			return rows, errors.Join(first, p.Close())
		default:
			return rows, fmt.Errorf("unexpected pipeline result %T", r)
		}
	}
	return rows, errors.Join(first, p.Close())
}
