package study

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// noisyRunner is a Runner whose every step returns three repetitions per
// target of noisyDoc's overlapping spread.
type noisyRunner struct{ calls int }

func (n *noisyRunner) Step(context.Context, []string, bool) (*result.Document, error) {
	n.calls++
	return noisyDoc(3, map[string]float64{"x": 100, "y": 90}).Steps[0].Result, nil
}

// TestUntilDecided checks that a ranking undecided on three repetitions
// is decided once study run repeats its step, its runs added up.
func TestUntilDecided(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	once, err := Run(context.Background(), s, &noisyRunner{}, Options{Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if c := claimOf(t, Evaluate(s, once), "rank"); c.Verdict != Undecided {
		t.Fatalf("one round: %s (%s), want undecided", c.Verdict, c.Reason)
	}
	r := &noisyRunner{}
	doc, err := Run(context.Background(), s, r, Options{Log: io.Discard, UntilDecided: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	c := claimOf(t, Evaluate(s, doc), "rank")
	if c.Verdict != Holds || doc.Steps[0].Rounds == 0 || r.calls != doc.Steps[0].Rounds+1 {
		t.Errorf("until decided: %s (%s) after %d rounds and %d calls, want holds after a few", c.Verdict, c.Reason, doc.Steps[0].Rounds, r.calls)
	}
	if n := len(doc.Steps[0].Result.Runs); n != 6*r.calls {
		t.Errorf("%d runs kept, want every round's: %d", n, 6*r.calls)
	}
}
