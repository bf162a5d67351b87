package insert

import (
	"context"
	"errors"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/load"
)

// scripted is an inserter whose k-th call (Build or Send, counted from 1
// over every inserter of one client) fails when fail says so.
type scripted struct {
	calls *int
	fail  func(call int) error
}

func (s *scripted) next() error { *s.calls++; return s.fail(*s.calls) }
func (s *scripted) Build(context.Context, string, *ch.Block) (ch.Batch, error) {
	if err := s.next(); err != nil {
		return nil, err
	}
	return ch.BatchFunc(func(context.Context) error { return s.next() }), nil
}
func (s *scripted) Commit(context.Context) error { return nil }
func (s *scripted) Close() error                 { return nil }

// TestWorkerFailure drives one worker through failures: the rows of a
// streamed INSERT already sent become uncertain whether its next Build or
// Send fails, the failed operation's own rows too when Send failed, and
// the next operation reconnects.
func TestWorkerFailure(t *testing.T) {
	reset := errors.New("write: connection reset")
	for _, tc := range []struct {
		name      string
		failAt    int // call that fails: odd calls are Build, even are Send
		uncertain int64
	}{
		{"build fails after two blocks sent", 5, 200},
		{"send fails after two blocks sent", 6, 300},
		{"first build fails", 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls, opens := 0, 0
			c := Client{Streams: true, Open: func(context.Context, Options) (ch.Inserter, error) {
				opens++
				return &scripted{calls: &calls, fail: func(k int) error {
					if k == tc.failAt {
						return reset
					}
					return nil
				}}, nil
			}}
			wl := NewWorkload(c, Options{Batch: 100, BlocksPerInsert: 5}, Table{Database: "d", Name: "t"}, event.Ring(1, 100, 1), 0)
			w, err := wl.NewWorker(context.Background(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			failed := 0
			for range 4 {
				if _, err := w.Do(context.Background()); err != nil {
					failed++
				}
			}
			if failed != 1 || wl.Uncertain() != tc.uncertain || opens != 2 {
				t.Errorf("%d failed ops, %d uncertain rows, %d opens; want 1, %d, 2 (a reconnect)", failed, wl.Uncertain(), opens, tc.uncertain)
			}
			w.(*worker).Close()
		})
	}
	// A reconnect refused is a connection error, for the closed loop's
	// back-off.
	c := Client{Open: func(context.Context, Options) (ch.Inserter, error) {
		return nil, syscall.ECONNREFUSED
	}}
	k := &worker{w: NewWorkload(c, Options{Batch: 10}, Table{}, event.Ring(1, 10, 1), 0)}
	if _, err := k.Do(context.Background()); load.Classify(err) != load.KindConnection {
		t.Errorf("reconnect error %v classified %q, want connection", err, load.Classify(err))
	}
}

// stuck is an inserter whose Send of a block waits for release (a
// server that stopped answering), counting commits and closes.
type stuck struct {
	entered, release chan struct{}
	commits, closes  atomic.Int32
	blockSends       bool
}

func (s *stuck) Build(context.Context, string, *ch.Block) (ch.Batch, error) {
	return ch.BatchFunc(func(context.Context) error {
		if s.blockSends {
			s.entered <- struct{}{}
			<-s.release
		}
		return nil
	}), nil
}
func (s *stuck) Commit(context.Context) error { s.commits.Add(1); return nil }
func (s *stuck) Close() error                 { s.closes.Add(1); return nil }

// TestWorkerCloseAbandoned: the runner closes a worker whose operation it
// abandoned as stuck while that operation still runs. Close then leaves
// the connection to the operation, which closes it, once and without
// committing, when it returns (a Close that went ahead raced the
// operation for the connection, and ch-go's path panicked on it); with no
// operation running, Close commits the open INSERT and closes once.
func TestWorkerCloseAbandoned(t *testing.T) {
	for _, abandoned := range []bool{false, true} {
		t.Run(map[bool]string{false: "idle", true: "abandoned"}[abandoned], func(t *testing.T) {
			s := &stuck{entered: make(chan struct{}), release: make(chan struct{})}
			c := Client{Streams: true, Open: func(context.Context, Options) (ch.Inserter, error) { return s, nil }}
			wl := NewWorkload(c, Options{Batch: 100, BlocksPerInsert: 5}, Table{Database: "d", Name: "t"}, event.Ring(1, 100, 1), 0)
			w, err := wl.NewWorker(context.Background(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Do(context.Background()); err != nil { // one block into an open INSERT
				t.Fatal(err)
			}
			k := w.(*worker)
			if !abandoned {
				k.Close()
				k.Close()
				if s.commits.Load() != 1 || s.closes.Load() != 1 || wl.Acked() != 100 {
					t.Errorf("commits %d, closes %d, acknowledged %d: want the open INSERT committed, 100 rows acknowledged, one close", s.commits.Load(), s.closes.Load(), wl.Acked())
				}
				return
			}
			s.blockSends = true
			done := make(chan struct{})
			go func() { k.Do(context.Background()); close(done) }()
			<-s.entered
			k.Close()
			if n := s.closes.Load(); n != 0 {
				t.Fatalf("Close closed the connection %d times under a running operation", n)
			}
			close(s.release)
			<-done
			if s.commits.Load() != 0 || s.closes.Load() != 1 || wl.Acked() != 0 || wl.Uncertain() != 200 {
				t.Errorf("commits %d, closes %d, acknowledged %d, uncertain %d: want no commit, one close, the open INSERT's 200 rows uncertain",
					s.commits.Load(), s.closes.Load(), wl.Acked(), wl.Uncertain())
			}
		})
	}
}

// TestWorkerCancelled: an operation whose context the runner cancelled
// fails as cancelled, whatever error the library made of it (database/sql
// reports the rollback it did on the cancellation: "sql: statement is
// closed", sql.ErrTxDone), so the run counts it unfinished, not other; an
// error with the context live stays what it was.
func TestWorkerCancelled(t *testing.T) {
	rolledBack := errors.New("sql: statement is closed")
	for _, tc := range []struct {
		name   string
		cancel bool
		want   string
	}{
		{"cancelled", true, load.KindUnfinished},
		{"live", false, load.KindOther},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			c := Client{Open: func(context.Context, Options) (ch.Inserter, error) {
				return &scripted{calls: &calls, fail: func(int) error { return rolledBack }}, nil
			}}
			wl := NewWorkload(c, Options{Batch: 100}, Table{Database: "d", Name: "t"}, event.Ring(1, 100, 1), 0)
			w, err := wl.NewWorker(context.Background(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.cancel {
				cancel()
			}
			defer cancel()
			_, err = w.Do(ctx)
			got := load.Classify(err)
			if errors.Is(err, context.Canceled) {
				got = load.KindUnfinished // as the runner's kindOf decides
			}
			if got != tc.want || !errors.Is(err, rolledBack) {
				t.Errorf("error %v classified %s, want %s and the library's error kept", err, got, tc.want)
			}
		})
	}
}
