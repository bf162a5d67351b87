package study

import (
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// s4Doc is s4's test-1 steps on two servers of one configuration, three
// repetitions each at the same rate; reads, when not negative, is the
// device read IOs each repetition counted.
func s4Doc(reads float64) *Document {
	doc := &Document{Schema: Schema}
	for i, step := range []string{"rw-1", "rw-2"} {
		var runs []result.Run
		for rep := 1; rep <= 3; rep++ {
			r := result.Run{Family: "pg", Target: []string{"127.0.0.1:5432/pgx", "127.0.0.1:5433/pgx"}[i], Workload: "tpcb-like", Workers: 32, Repeat: rep,
				Stats: result.Stats{DurationS: 10, Ops: 10000 + int64(rep), OpsPerS: 1000 + float64(rep)/10}}
			if reads >= 0 {
				r.Extra = map[string]float64{"device_read_ios": reads}
			}
			runs = append(runs, r)
		}
		doc.Steps = append(doc.Steps, StepRun{ID: step, Result: &result.Document{Runs: runs}})
	}
	return doc
}

// TestS4IOBoundPremise: two servers of one configuration, with no device
// reads counted or too few, leave the IO-bound claim "cannot be checked
// here", naming the premise; read off the device, the same figures give a
// verdict.
func TestS4IOBoundPremise(t *testing.T) {
	s, err := Load("s4")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		reads   float64
		verdict string
		reason  string
	}{
		{-1, CannotCheck, "no device read IOs counted"},
		{10, CannotCheck, "read the device 0.001"},
		{30000, DoesNotHold, "test1-rw"},
	} {
		c := claimOf(t, Evaluate(s, s4Doc(tt.reads)), "rw-4.3x-rds")
		if c.Verdict != tt.verdict || !strings.Contains(c.Reason, tt.reason) || (tt.verdict == CannotCheck && !strings.Contains(c.Reason, "IO-bound")) {
			t.Errorf("%v device reads: %s (%s), want %s naming %q", tt.reads, c.Verdict, c.Reason, tt.verdict, tt.reason)
		}
	}
}
