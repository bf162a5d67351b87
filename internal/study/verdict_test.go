package study

import (
	"io"
	"math"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// noisyStudy ranks x above y, whose repetitions overlap; it also asks
// the other kinds verdicts know.
const noisyStudy = `id: n
title: noise
source: here
steps:
  - id: a
    run: null --duration 1s
tables:
  - id: tp
    title: throughput
    step: a
    rows: workload
    columns: target
    figure: throughput
    unit: ops/s
    header: [x, y]
    names: {x: x/null, y: y/null}
    published:
      noop: [100, 50]
  - id: time
    title: time per worker
    step: a
    rows: workload
    columns: target
    figure: per_worker_ns
    unit: ns
    header: [x, y]
    names: {x: x/null, y: y/null}
    published:
      noop: [1, 2]
claims:
  - {id: rank, text: x before y, kind: ranking, cells: [[tp, noop, x], [tp, noop, y]]}
  - {id: close, text: x close to y, kind: close, a: [tp, noop, x], b: [tp, noop, y], within: 0.5}
  - {id: diff, text: x at least 5 more than y, kind: difference, a: [tp, noop, x], b: [tp, noop, y], above: 2}
  - id: premised
    text: x before y on two servers
    kind: ranking
    cells: [[tp, noop, x], [tp, noop, y]]
    premise: {what: two different servers, evidence: different_servers}
  - id: iobound
    text: x before y when IO-bound
    kind: ranking
    cells: [[tp, noop, x], [tp, noop, y]]
    premise: {what: "IO-bound: the data does not fit in memory", evidence: device_reads, above: 0.5}
  - {id: published, text: only published, kind: ranking, cells: [[tp, noop, x], [tp, noop, y]], published_only: the clients cannot run here}
deviations:
  - {id: two-cores, what: two cores, by: machine, moves: [tp]}
  - {id: short, what: short windows, by: file, why: to finish in a minute, moves: [diff]}
`

// noisyDoc has n repetitions per target, each the target's base rate
// plus −10, 0 or +10 in turn: a spread that overlaps at 3 repetitions
// and not at 30.
func noisyDoc(n int, base map[string]float64) *Document {
	var runs []result.Run
	for target, b := range base {
		for i := range n {
			x := b + float64(i%3-1)*10
			runs = append(runs, result.Run{Family: "null", Target: target + "/null", Workload: "noop", Workers: 2, Repeat: i + 1,
				Stats: result.Stats{DurationS: 1, Ops: int64(x), OpsPerS: x}})
		}
	}
	return &Document{Schema: Schema, Steps: []StepRun{{ID: "a", Result: &result.Document{Runs: runs}}}}
}

func claimOf(t *testing.T, v *View, id string) ClaimView {
	t.Helper()
	for _, c := range v.Claims {
		if c.Claim.ID == id {
			return c
		}
	}
	t.Fatalf("no claim %s", id)
	return ClaimView{}
}

func TestVerdictWithinNoise(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]float64{"x": 100, "y": 90}
	few := Evaluate(s, noisyDoc(3, base))
	c := claimOf(t, few, "rank")
	if c.Verdict != Undecided || !strings.Contains(c.Reason, "95%") || c.Need <= 3 {
		t.Errorf("3 overlapping repetitions: %s (%s), need %d; want undecided, its interval and a count above 3", c.Verdict, c.Reason, c.Need)
	}
	m := few.Tables[0].Cells[0][0].Measured
	if m == nil || m.N != 3 || !m.HasInterval() || !(m.Lo < 100 && m.Hi > 100) {
		t.Errorf("cell x: %+v, want 3 repetitions and an interval around 100", m)
	}
	many := Evaluate(s, noisyDoc(c.Need+3, base))
	if c := claimOf(t, many, "rank"); c.Verdict != Holds {
		t.Errorf("%d repetitions: %s (%s), want holds", c.Need+3, c.Verdict, c.Reason)
	}
	if c := claimOf(t, many, "close"); c.Verdict != Holds {
		t.Errorf("close: %s (%s), want holds (100/90 within 50 %%)", c.Verdict, c.Reason)
	}
	if c := claimOf(t, many, "diff"); c.Verdict != Holds {
		t.Errorf("difference: %s (%s), want holds (10 > 2)", c.Verdict, c.Reason)
	}
	if c := claimOf(t, many, "premised"); c.Verdict != Holds {
		t.Errorf("premised on two servers x and y: %s (%s), want holds", c.Verdict, c.Reason)
	}
	if c := claimOf(t, many, "published"); c.Verdict != CannotCheck || c.Published != Holds || !strings.Contains(c.Reason, "cannot run here") {
		t.Errorf("published only: %s (%s), published %s", c.Verdict, c.Reason, c.Published)
	}
	if c := claimOf(t, many, "diff"); strings.Join(c.Deviations, ",") != "two-cores,short" {
		t.Errorf("diff's deviations %v, want two-cores (its table) and short (named)", c.Deviations)
	}
	contra := Evaluate(s, noisyDoc(30, map[string]float64{"x": 90, "y": 100}))
	if c := claimOf(t, contra, "rank"); c.Verdict != DoesNotHold {
		t.Errorf("y decidedly ahead: %s (%s), want does not hold", c.Verdict, c.Reason)
	}
}

// TestDerivedFigureAgrees checks that a time derived from the throughput
// is the cell's throughput's, interval and all (seed 004's time tables).
func TestDerivedFigureAgrees(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	v := Evaluate(s, noisyDoc(3, map[string]float64{"x": 100, "y": 90}))
	tp, tm := v.Tables[0].Cells[0][0].Measured, v.Tables[1].Cells[0][0].Measured
	if want := 1e9 / (tp.Value * 2); math.Abs(tm.Value-want) > 1e-6*want {
		t.Errorf("time %v, want 1e9/(throughput %v × 2 workers) = %v", tm.Value, tp.Value, want)
	}
	if want := 1e9 / (tp.Hi * 2); math.Abs(tm.Lo-want) > 1e-6*want {
		t.Errorf("time's low end %v, want the throughput's high end's %v", tm.Lo, want)
	}
}

func TestPremiseOneServer(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	d := noisyDoc(30, map[string]float64{"x": 100, "y": 90})
	for i := range d.Steps[0].Result.Runs {
		r := &d.Steps[0].Result.Runs[i]
		r.Target = "127.0.0.1:5432/" + r.Target // one server, two targets
	}
	s.Tables[0].Names = map[string]string{"x": "127.0.0.1:5432/x/null", "y": "127.0.0.1:5432/y/null"}
	c := claimOf(t, Evaluate(s, d), "premised")
	if c.Verdict != CannotCheck || !strings.Contains(c.Reason, "two different servers") || !strings.Contains(c.Reason, "one server") {
		t.Errorf("one server: %s (%s), want cannot be checked, naming the premise and the evidence", c.Verdict, c.Reason)
	}
}

func TestVerdictFieldsValidated(t *testing.T) {
	tests := []struct{ old, new, want string }{
		{"within: 0.5", "within: 0", "claims[1].within"},
		{"by: file, why: to finish in a minute", "by: file", "deviations[1].why"},
		{"by: machine", "by: someone", "deviations[0].by"},
		{"moves: [tp]", "moves: [nope]", "deviations[0].moves[0]"},
		{"evidence: different_servers", "evidence: vibes", "claims[3].premise.evidence"},
		{"kind: close", "kind: near", "claims[1].kind"},
	}
	for _, tt := range tests {
		_, err := Parse("n.yaml", []byte(strings.Replace(noisyStudy, tt.old, tt.new, 1)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s → %s: %v, want a mistake at %s", tt.old, tt.new, err, tt.want)
		}
	}
}

// TestPremiseIOBound checks an IO-bound premise against the device reads
// the runs counted: none counted (no storage profile), too few, enough.
func TestPremiseIOBound(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		reads   float64 // device read IOs per repetition (of about 100 operations)
		verdict string
		reason  string
	}{
		{"not counted", -1, CannotCheck, "no device read IOs counted"},
		{"in memory", 1, CannotCheck, "read the device 0.01"},
		{"IO-bound", 100, Holds, ""},
	} {
		d := noisyDoc(30, map[string]float64{"x": 100, "y": 90})
		for i := range d.Steps[0].Result.Runs {
			if tt.reads >= 0 {
				d.Steps[0].Result.Runs[i].Extra = map[string]float64{"device_read_ios": tt.reads}
			}
		}
		c := claimOf(t, Evaluate(s, d), "iobound")
		if c.Verdict != tt.verdict || !strings.Contains(c.Reason, tt.reason) || (tt.verdict == CannotCheck && !strings.Contains(c.Reason, "IO-bound")) {
			t.Errorf("%s: %s (%s), want %s naming the premise and %q", tt.name, c.Verdict, c.Reason, tt.verdict, tt.reason)
		}
	}
}

// TestUndecidedTablesPrintIntervals: the tables of a study whose ranking
// is undecided print each cell's interval, in every format.
func TestUndecidedTablesPrintIntervals(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	p := Page(Evaluate(s, noisyDoc(3, map[string]float64{"x": 100, "y": 90})))
	for name, write := range map[string]func(io.Writer, report.Page) error{"text": report.PageText, "markdown": report.PageMarkdown, "html": report.PageHTML} {
		var b strings.Builder
		if err := write(&b, p); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "±") || !strings.Contains(b.String(), Undecided) {
			t.Errorf("%s: no ± or no undecided verdict:\n%s", name, b.String())
		}
	}
}

// TestNoOperationCompleted: a rate cell that completed nothing leaves its
// claims "cannot be checked here", never decided on a ratio of 0 or ∞.
func TestNoOperationCompleted(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	d := noisyDoc(3, map[string]float64{"x": 100})
	for i := 1; i <= 3; i++ {
		d.Steps[0].Result.Runs = append(d.Steps[0].Result.Runs, result.Run{Family: "null", Target: "y/null", Workload: "noop", Workers: 2, Repeat: i, Stats: result.Stats{DurationS: 1}})
	}
	if c := claimOf(t, Evaluate(s, d), "rank"); c.Verdict != CannotCheck || !strings.Contains(c.Reason, "no operation completed") {
		t.Errorf("y completed nothing: %s (%s), want cannot be checked: no operation completed", c.Verdict, c.Reason)
	}
}

// TestPremiseDifferentServers: two servers stand for two services only if
// they differ in host or version. Two clusters of one host and one
// version (two dev-services clusters) are one kind of server: a ratio
// between them is about 1 by construction, and the claim cannot be
// checked here, saying so, rather than not holding.
func TestPremiseDifferentServers(t *testing.T) {
	s, err := Parse("n.yaml", []byte(noisyStudy))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name               string
		addrX, addrY       string
		versionX, versionY string
		want               string // "" for a verdict
	}{
		{"one host, one version", "127.0.0.1:5432", "127.0.0.1:5433", "PostgreSQL 15.18", "PostgreSQL 15.18", "one kind of server"},
		{"two hosts", "db1:5432", "db2:5432", "PostgreSQL 15.18", "PostgreSQL 15.18", ""},
		{"one host, two versions", "127.0.0.1:5432", "127.0.0.1:5433", "PostgreSQL 15.18", "PostgreSQL 17.2", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := noisyDoc(30, map[string]float64{"x": 100, "y": 90})
			for i := range d.Steps[0].Result.Runs {
				r := &d.Steps[0].Result.Runs[i]
				addr, version := tt.addrX, tt.versionX
				if strings.HasPrefix(r.Target, "y/") {
					addr, version = tt.addrY, tt.versionY
				}
				r.Target, r.Server = addr+"/"+r.Target, version
			}
			s.Tables[0].Names = map[string]string{"x": tt.addrX + "/x/null", "y": tt.addrY + "/y/null"}
			c := claimOf(t, Evaluate(s, d), "premised")
			if tt.want == "" && c.Verdict == CannotCheck {
				t.Errorf("%s (%s), want a verdict", c.Verdict, c.Reason)
			}
			if tt.want != "" && (c.Verdict != CannotCheck || !strings.Contains(c.Reason, tt.want)) {
				t.Errorf("%s (%s), want cannot be checked: %s", c.Verdict, c.Reason, tt.want)
			}
		})
	}
}
