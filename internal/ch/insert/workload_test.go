package insert

import (
	"context"
	"errors"
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
