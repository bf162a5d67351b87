package study

import (
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// s4Doc is s4's test-1 steps on two servers of one configuration (one
// host, two ports), three repetitions each at the same rate; reads, when
// not negative, is the device read IOs each repetition counted; profiles,
// when given, the storage profile each server ran under.
func s4Doc(reads float64, profiles ...string) *Document {
	doc := &Document{Schema: Schema}
	for i, step := range []string{"rw-1", "rw-2"} {
		var runs []result.Run
		for rep := 1; rep <= 3; rep++ {
			r := result.Run{Family: "pg", Target: []string{"127.0.0.1:5432/pgx", "127.0.0.1:5433/pgx"}[i], Workload: "tpcb-like", Workers: 32, Repeat: rep,
				Stats: result.Stats{DurationS: 10, Ops: 10000 + int64(rep), OpsPerS: 1000 + float64(rep)/10}}
			if reads >= 0 {
				r.Extra = map[string]float64{"device_read_ios": reads}
			}
			if len(profiles) == 2 {
				r.Params = map[string]string{"storage_profile": profiles[i]}
			}
			runs = append(runs, r)
		}
		doc.Steps = append(doc.Steps, StepRun{ID: step, Result: &result.Document{Runs: runs}})
	}
	return doc
}

// TestS4IOBoundPremise: two servers of one configuration leave the
// IO-bound claim "cannot be checked here", naming the premise that is
// missing: with no device reads counted or too few, IO-bound; read off the
// device but on one host's disk under one profile, storage that differs.
// Under different storage profiles the same figures give a verdict.
func TestS4IOBoundPremise(t *testing.T) {
	s, err := Load("s4")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		doc     *Document
		verdict string
		premise string // the premise the reason names
		reason  string
	}{
		{s4Doc(-1), CannotCheck, "IO-bound", "no device read IOs counted"},
		{s4Doc(10), CannotCheck, "IO-bound", "read the device 0.001"},
		{s4Doc(30000), CannotCheck, "storage that differs", "ran on host 127.0.0.1 under no storage profile: one storage"},
		{s4Doc(30000, "nvme,mem=96M", "nvme,mem=96M"), CannotCheck, "storage that differs", "one storage"},
		{s4Doc(30000, "nvme,mem=96M", "provisioned,mem=96M"), DoesNotHold, "", "test1-rw"},
	} {
		c := claimOf(t, Evaluate(s, tt.doc), "rw-4.3x-rds")
		if c.Verdict != tt.verdict || !strings.Contains(c.Reason, tt.reason) || !strings.Contains(c.Reason, tt.premise) {
			t.Errorf("%s: %s (%s), want %s naming %q and %q", tt.doc.Steps[0].Result.Runs[0].Params, c.Verdict, c.Reason, tt.verdict, tt.premise, tt.reason)
		}
	}
}
