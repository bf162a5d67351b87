package study

import (
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

func TestBuiltinStudiesParse(t *testing.T) {
	all, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range all {
		ids = append(ids, s.ID)
		if s.Hash == "" || len(s.Tables) == 0 || len(s.Claims) == 0 {
			t.Errorf("%s: hash %q, %d tables, %d claims", s.ID, s.Hash, len(s.Tables), len(s.Claims))
		}
	}
	if got := strings.Join(ids, ","); got != "s1,s2,s3,s4,s5" {
		t.Errorf("built-in studies %s, want s1,s2,s3,s4,s5", got)
	}
}

// Every built-in claim holds on the figures its own article published,
// unless it says it is not in them: a claim transcribed wrong, or
// pointing at the wrong cell, fails here.
func TestBuiltinClaimsHoldOnPublishedFigures(t *testing.T) {
	all, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		v := Evaluate(s, &Document{})
		for _, c := range v.Claims {
			if c.Published != Holds && c.Published != notPublished {
				t.Errorf("%s claim %s: %s on the published figures", s.ID, c.Claim.ID, c.Published)
			}
		}
	}
}

const goodStudy = `id: t
title: test
source: here
steps:
  - id: a
    run: null --duration 100ms
tables:
  - id: tp
    title: throughput
    step: a
    rows: workload
    columns: target
    figure: throughput
    unit: ops/s
    header: ["null"]
    published:
      noop: [1000]
claims:
  - id: fast
    text: fast
    kind: threshold
    cells: [[tp, noop, "null"]]
    above: 10
`

// Each mistake is one line naming the file, the line and the field.
func TestValidationNamesFileLineField(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           []string
	}{
		{"unknown field", "title: test\n", "titel: test\n", []string{`t.yaml:2: titel: unknown key "titel": did you mean title?`}},
		{"unknown field of a table", "rows: workload", "rowz: workload", []string{`t.yaml:11: tables[0].rowz: unknown key "rowz": did you mean rows?`}},
		{"unknown field, nothing near", "title: test\n", "title: test\nwhatever: x\n", []string{`t.yaml:3: whatever: unknown key "whatever": a study takes about, claims,`}},
		{"wrong type", "noop: [1000]", "noop: [1000]\n    multiply: lots", []string{"t.yaml:18: tables[0].multiply: cannot read text `lots` as a number"}},
		{"missing id", "id: t\n", "", []string{"t.yaml:1: id: missing"}},
		{"not dbmeter", "run: null --duration 100ms", "run: pgbench -c 4", []string{`t.yaml:6: steps[0].run: "pgbench -c 4" is not a dbmeter benchmark`}},
		{"unknown placeholder", "run: null --duration 100ms", "run: null {mysql}", []string{"t.yaml:6: steps[0].run: unknown placeholder {mysql}"}},
		{"unknown step", "step: a\n", "step: b\n", []string{`t.yaml:10: tables[0].step: "b" is not a step`}},
		{"bad figure", "figure: throughput", "figure: speed", []string{`t.yaml:13: tables[0].figure: "speed" is not a figure dbmeter measures: use`}},
		{"figure typo", "figure: throughput", "figure: throughpt", []string{`t.yaml:13: tables[0].figure: "throughpt" is not a figure dbmeter measures (did you mean throughput?)`}},
		{"wrong unit", "unit: ops/s", "unit: ms", []string{`t.yaml:14: tables[0].unit: "ms" is not a unit of throughput: it is shown in k ops/s`}},
		{"unknown unit", "unit: ops/s", "unit: op/s", []string{`t.yaml:14: tables[0].unit: "op/s" is not a unit (did you mean ops/s?): throughput is shown in`}},
		{"bad rows", "rows: workload", "rows: engine", []string{`t.yaml:11: tables[0].rows: "engine" is not a run field`}},
		{"short row", "noop: [1000]", "noop: [1000, 2]", []string{"t.yaml:17: tables[0].published.noop: 2 values for 1 columns"}},
		{"not a number", "noop: [1000]", "noop: [fast]", []string{`t.yaml:17: tables[0].published.noop[0]: "fast" is not a number`}},
		{"claim cell", `cells: [[tp, noop, "null"]]`, `cells: [[tp, nop, "null"]]`, []string{`t.yaml:22: claims[0].cells[0]: "nop" is not a row of table tp`}},
		{"claim kind", "kind: threshold", "kind: trend", []string{`t.yaml:21: claims[0].kind: "trend" is not a kind of claim: use threshold`}},
		{"unknown step, suggested", "step: a\n", "step: aa\n", []string{`t.yaml:10: tables[0].step: "aa" is not a step of this study (did you mean a?)`}},
		{"bad indent", "    figure: throughput\n", "    figure: throughput\n     unit2: x\n", []string{`t.yaml:14: not YAML: mapping values are not allowed in this context`}},
		{"two mistakes", "unit: ops/s\n", "unit: ops/s\n    environment: lab\n", []string{`t.yaml:15: tables[0].environment: "lab" is not an environment`}},
		{"two mistakes, two lines", "step: a\n", "step: b\n    environment: lab\n", []string{`t.yaml:10: tables[0].step`, `t.yaml:11: tables[0].environment`}},
	}
	if _, err := Parse("t.yaml", []byte(goodStudy)); err != nil {
		t.Fatalf("the good study: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(goodStudy, tt.old, tt.new, 1)
			_, err := Parse("t.yaml", []byte(text))
			es, ok := err.(Errors)
			if !ok {
				t.Fatalf("err = %v, want Errors", err)
			}
			if len(es) != len(tt.want) {
				t.Errorf("%d mistakes, want %d:\n%v", len(es), len(tt.want), err)
			}
			for i, w := range tt.want {
				if i < len(es) && !strings.HasPrefix(es[i].Error(), w) {
					t.Errorf("mistake %d: %q, want it to start %q", i, es[i].Error(), w)
				}
			}
		})
	}
}

// doc is a study result document of one step "a" whose runs have these
// targets and throughputs (ops over one second), three repetitions each.
func doc(tp map[string][]float64) *Document {
	var runs []result.Run
	for target, xs := range tp {
		for i, x := range xs {
			runs = append(runs, result.Run{Family: "null", Target: target, Workload: "noop", Repeat: i + 1,
				Stats: result.Stats{DurationS: 1, Ops: int64(x), OpsPerS: x}})
		}
	}
	return &Document{Schema: Schema, Steps: []StepRun{{ID: "a", Result: &result.Document{Runs: runs}}}}
}

const claimStudy = `id: c
title: claims
source: here
steps:
  - id: a
    run: null --duration 1s
  - id: b
    run: ch insert {clickhouse}
tables:
  - id: tp
    title: throughput
    step: a
    rows: workload
    columns: target
    figure: throughput
    unit: ops/s
    header: [x, y]
    published:
      noop: [100, 50]
  - id: modern
    title: modern
    step: b
    rows: workload
    columns: target
    figure: throughput
    unit: ops/s
    header: [x]
    published:
      noop: [100]
claims:
  - {id: above, text: x above 80, kind: threshold, cells: [[tp, noop, x]], above: 80}
  - {id: ratio, text: x twice y, kind: ratio, a: [tp, noop, x], b: [tp, noop, y], above: 1.5, below: 2.5}
  - {id: rank, text: x before y, kind: ranking, cells: [[tp, noop, x], [tp, noop, y]]}
  - {id: low, text: y lowest, kind: lowest, cell: [tp, noop, y], cells: [[tp, noop, x]]}
  - {id: srv, text: modern server, kind: threshold, cells: [[modern, noop, x]], above: 1}
`

func TestClaimVerdicts(t *testing.T) {
	s, err := Parse("c.yaml", []byte(claimStudy))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tp   map[string][]float64
		want map[string]string
	}{
		{"as published", map[string][]float64{"x": {100, 100, 100}, "y": {50, 50, 50}},
			map[string]string{"above": Holds, "ratio": Holds, "rank": Holds, "low": Holds}},
		{"contradicted", map[string][]float64{"x": {40, 40, 40}, "y": {60, 60, 60}},
			map[string]string{"above": DoesNotHold, "ratio": DoesNotHold, "rank": DoesNotHold, "low": DoesNotHold}},
		{"ratio out of bound", map[string][]float64{"x": {300, 300, 300}, "y": {50, 50, 50}},
			map[string]string{"above": Holds, "ratio": DoesNotHold, "rank": Holds}},
		{"y not run", map[string][]float64{"x": {100, 100, 100}},
			map[string]string{"above": Holds, "ratio": CannotCheck, "rank": CannotCheck, "low": CannotCheck}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := doc(tt.tp)
			d.Steps = append(d.Steps, StepRun{ID: "b", Skipped: "no modern ClickHouse server given (DBMETER_CLICKHOUSE_DSN unset)"})
			v := Evaluate(s, d)
			for _, c := range v.Claims {
				if want, ok := tt.want[c.Claim.ID]; ok && c.Verdict != want {
					t.Errorf("claim %s: %s (%s), want %s", c.Claim.ID, c.Verdict, c.Reason, want)
				}
				if c.Claim.ID == "srv" && (c.Verdict != CannotCheck || !strings.Contains(c.Reason, "DBMETER_CLICKHOUSE_DSN unset")) {
					t.Errorf("claim srv: %s (%s), want cannot be checked, naming DBMETER_CLICKHOUSE_DSN", c.Verdict, c.Reason)
				}
			}
		})
	}
}

// A cell measured against the stand-in is printed and never compared,
// and its claims cannot be checked.
func TestStandinNeverCompared(t *testing.T) {
	s, err := Parse("c.yaml", []byte(claimStudy))
	if err != nil {
		t.Fatal(err)
	}
	d := doc(map[string][]float64{"x": {100}, "y": {50}})
	d.Steps = append(d.Steps, StepRun{ID: "b", Standin: true, Result: &result.Document{Runs: []result.Run{{Target: "x", Workload: "noop", Stats: result.Stats{DurationS: 1, Ops: 500, OpsPerS: 500}}}}})
	v := Evaluate(s, d)
	c := v.Tables[1].Cells[0][0]
	if c.Measured == nil || c.Measured.Value != 500 {
		t.Fatalf("stand-in cell measured %+v, want 500", c.Measured)
	}
	if _, ok := c.Ratio(); ok {
		t.Error("a stand-in cell has a ratio to a published figure")
	}
	if got := v.Claims[4]; got.Verdict != CannotCheck || !strings.Contains(got.Reason, "stand-in") {
		t.Errorf("claim over a stand-in cell: %s (%s)", got.Verdict, got.Reason)
	}
}

func TestCompareIntervals(t *testing.T) {
	s, err := Parse("c.yaml", []byte(claimStudy))
	if err != nil {
		t.Fatal(err)
	}
	a := doc(map[string][]float64{"x": {100, 102, 98}, "y": {50, 51, 49}})
	b := doc(map[string][]float64{"x": {150, 153, 147}, "y": {50, 52, 48}})
	c := Compare(s, a, b)
	if len(c.Cells) != 2 {
		t.Fatalf("%d cells, want 2", len(c.Cells))
	}
	for _, cr := range c.Cells {
		if math.IsNaN(cr.Lo) || cr.Lo > cr.Ratio || cr.Hi < cr.Ratio {
			t.Errorf("%s: ratio %.3f outside its interval %.3f–%.3f", cr.Column, cr.Ratio, cr.Lo, cr.Hi)
		}
		if want := cr.Column == "x"; cr.Excludes1 != want {
			t.Errorf("%s: ratio %.3f (%.3f–%.3f) excludes 1: %v, want %v", cr.Column, cr.Ratio, cr.Lo, cr.Hi, cr.Excludes1, want)
		}
	}
	if want := math.Sqrt(1.5 * 1.0); len(c.Kinds) != 1 || math.Abs(c.Kinds[0].GeoMean-want) > 0.01 {
		t.Errorf("geometric means %+v, want one of %.4f", c.Kinds, want)
	}
}

// Columns named #1, #2 are the servers in the order the runs met them: with
// one server the second column's claims cannot be checked, saying so; with
// two the ratio is checked.
func TestServersByOrder(t *testing.T) {
	text := strings.Replace(claimStudy, "    header: [x, y]\n", "    header: [x, y]\n    names: {x: \"#1\", y: \"#2\"}\n", 1)
	s, err := Parse("c.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	one := Evaluate(s, doc(map[string][]float64{"db1:5432/bench/pgx": {100}}))
	if c := one.Claims[1]; c.Verdict != CannotCheck || !strings.Contains(c.Reason, "one server") {
		t.Errorf("one server: %s (%s), want cannot be checked: one server", c.Verdict, c.Reason)
	}
	two := Evaluate(s, doc(map[string][]float64{"db1:5432/bench/pgx": {100}, "db2:5432/bench/pgx": {50}}))
	if c := two.Claims[1]; c.Verdict == CannotCheck {
		t.Errorf("two servers: %s (%s), want a verdict", c.Verdict, c.Reason)
	}
}

// {pg} is every PostgreSQL server given; {pg1} and {pg2} the first and
// the second alone (a step under --storage-profile runs one server), and a
// step naming a server past those given is skipped, saying how many were.
func TestPostgresPlaceholders(t *testing.T) {
	flags := Flags{Server: "--server-of-step", Servers: "--servers-of-study"}
	two := Options{Flags: flags, Servers: Servers{PG: []string{"postgres://a/x", "postgres://b/x"}}}
	one := Options{Flags: flags, Servers: Servers{PG: []string{"postgres://e/x"}}}
	tests := []struct {
		name, line string
		o          Options
		want, why  string
	}{
		{"all", "pg {pg} -S", two, "pg --server-of-step postgres://a/x --server-of-step postgres://b/x -S", ""},
		{"first", "pg {pg1} -S", two, "pg --server-of-step postgres://a/x -S", ""},
		{"second", "pg {pg2} -S", two, "pg --server-of-step postgres://b/x -S", ""},
		{"first of the environment's", "pg {pg1} -S", one, "pg --server-of-step postgres://e/x -S", ""},
		{"second of one", "pg {pg2} -S", one, "", "{pg2} is the PostgreSQL server given second, and 1 was given"},
		{"none", "pg {pg1} -S", Options{Flags: flags}, "", "no PostgreSQL server given"},
	}
	for _, tt := range tests {
		args, _, _, why := expand(tt.line, tt.o)
		if got := strings.Join(args, " "); got != tt.want || !strings.HasPrefix(why, tt.why) || (tt.why == "") != (why == "") {
			t.Errorf("%s: %q (why %q), want %q (why %q)", tt.name, got, why, tt.want, tt.why)
		}
	}
}

// A placeholder may carry DSN parameters for its step: each DSN it stands
// for gets them, after the parameters the DSN has.
func TestPlaceholderParameters(t *testing.T) {
	o := Options{Flags: Flags{Server: "--server-of-step"}, Servers: Servers{CHLegacy: "clickhouse://l:9000/default", PG: []string{"postgres://e/x?sslmode=disable"}}}
	tests := []struct{ line, want string }{
		{"ch insert {clickhouse-legacy?compress=lz4} --batch 5", "ch insert --server-of-step clickhouse://l:9000/default?compress=lz4 --batch 5"},
		{"pg {pg?application_name=s} -S", "pg --server-of-step postgres://e/x?sslmode=disable&application_name=s -S"},
		{"ch insert {clickhouse-legacy}", "ch insert --server-of-step clickhouse://l:9000/default"},
	}
	for _, tt := range tests {
		args, _, _, why := expand(tt.line, o)
		if got := strings.Join(args, " "); got != tt.want || why != "" {
			t.Errorf("%s: %q (%s), want %q", tt.line, got, why, tt.want)
		}
	}
	if _, err := Parse("t.yaml", []byte(strings.Replace(goodStudy, "run: null --duration 100ms", "run: null {nope?compress=lz4}", 1))); err == nil || !strings.Contains(err.Error(), "unknown placeholder {nope?compress=lz4}") {
		t.Errorf("an unknown placeholder with parameters: %v", err)
	}
}

// The environment lines say which steps compressed their blocks: seed
// 002's author ran SeasClick with compression on, and a reader comparing
// with it must see whether these runs did.
func TestEnvironmentSaysCompression(t *testing.T) {
	step := func(id, compress string) StepRun {
		r := result.Run{Params: map[string]string{}}
		if compress != "" {
			r.Params["compress"] = compress
		}
		return StepRun{ID: id, Result: &result.Document{Env: result.Env{Go: "go1"}, Runs: []result.Run{r}}}
	}
	tests := []struct {
		steps []StepRun
		want  string
	}{
		{[]StepRun{step("a", "lz4"), step("b", "lz4"), step("c", "")}, "go1; lz4 compression in 2 steps"},
		{[]StepRun{step("a", "")}, "go1"},
	}
	for _, tt := range tests {
		var runs []*StepRun
		for i := range tt.steps {
			runs = append(runs, &tt.steps[i])
		}
		if got := clientHere(runs); got != tt.want {
			t.Errorf("client %q, want %q", got, tt.want)
		}
	}
}

// stepFunc is a Runner whose every step returns err and writes nothing.
type stepFunc struct{ err error }

func (f stepFunc) Step(context.Context, []string, bool) (*result.Document, error) { return nil, f.err }

// A step that cannot run on this machine (a storage profile without root
// or cgroups) is skipped with its reason, and its claims cannot be
// checked here; a step that fails is a failure, not a skip.
func TestUnavailableStepSkipped(t *testing.T) {
	s, err := Parse("c.yaml", []byte(claimStudy))
	if err != nil {
		t.Fatal(err)
	}
	refusal := "the storage profile cannot be applied: no permission to make or write cgroups (run as root)"
	tests := []struct {
		name              string
		err               error
		skipped, failed   string
		verdict, inReason string
	}{
		{"unavailable", &Unavailable{Reason: refusal}, "cannot run here: " + refusal, "", CannotCheck, refusal},
		{"failed", errors.New("exit status 1"), "", "exit status 1", CannotCheck, "failed: exit status 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Run(context.Background(), s, stepFunc{tt.err}, Options{Log: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			if a := doc.Steps[0]; a.Skipped != tt.skipped || a.Error != tt.failed {
				t.Errorf("step a: skipped %q, error %q; want skipped %q, error %q", a.Skipped, a.Error, tt.skipped, tt.failed)
			}
			c := Evaluate(s, doc).Claims[0]
			if c.Verdict != tt.verdict || !strings.Contains(c.Reason, tt.inReason) {
				t.Errorf("claim above: %s (%s), want %s naming %q", c.Verdict, c.Reason, tt.verdict, tt.inReason)
			}
		})
	}
}
