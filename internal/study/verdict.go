package study

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/report"
)

// Undecided is the verdict of a claim whose compared quantity's 95 %
// interval reaches across its bound: the repetitions' spread could put it
// on either side.
const Undecided = "undecided"

// VerdictOrder lists the verdicts in the order a summary counts them.
var VerdictOrder = []string{Holds, DoesNotHold, Undecided, CannotCheck}

// test is one comparison a claim makes: a quantity and the side of a
// bound it must lie on (above, below, or between the two).
type test struct {
	what         string
	q            report.Estimate
	above, below *float64
	// exact marks a published figure: no interval, its value decides.
	exact bool
	// log marks a ratio, whose distance to a bound is measured on a log
	// scale, as its interval is.
	log bool
}

// outcome of a test.
type outcome struct {
	sign int // +1 decided true, -1 decided false, 0 undecided
	text string
	// need is the repetitions per cell estimated to decide (0: unknown).
	need int
}

func (t test) decide() outcome {
	q := t.q
	show := fmt.Sprintf("%s = %s", t.what, num(q.Value))
	lo, hi := q.Lo, q.Hi
	if t.exact {
		lo, hi = q.Value, q.Value
	} else {
		switch {
		case q.Few:
			return outcome{text: show + " from too few operations (†): run longer or repeat more"}
		case !q.HasInterval():
			return outcome{text: fmt.Sprintf("%s from %d repetition(s), no interval: repeat it", show, q.N)}
		}
		show += fmt.Sprintf(" (95%% %s–%s, n=%d)", num(lo), num(hi), q.N)
	}
	in := func(x float64) bool {
		return (t.above == nil || x > *t.above) && (t.below == nil || x < *t.below)
	}
	switch {
	case math.IsNaN(q.Value) || math.IsInf(q.Value, 0):
		return outcome{text: show + ": no figure to compare"}
	case in(lo) && in(hi):
		return outcome{sign: 1, text: show}
	case (t.above != nil && hi <= *t.above) || (t.below != nil && lo >= *t.below):
		return outcome{sign: -1, text: show + " " + t.bounds()}
	}
	return outcome{text: show + " reaches across " + t.bounds(), need: t.need()}
}

// bounds names what the test asks.
func (t test) bounds() string {
	switch {
	case t.above != nil && t.below != nil:
		return fmt.Sprintf("the band %s–%s", num(*t.above), num(*t.below))
	case t.above != nil:
		return "the bound > " + num(*t.above)
	}
	return "the bound < " + num(*t.below)
}

// need estimates the repetitions per cell after which the interval would
// no longer reach the nearest bound.
func (t test) need() int {
	q := t.q
	dist := math.Inf(1)
	for _, b := range []*float64{t.above, t.below} {
		if b == nil {
			continue
		}
		d := math.Abs(q.Value - *b)
		if t.log && *b > 0 && q.Value > 0 {
			d = math.Abs(math.Log(q.Value / *b))
		}
		dist = math.Min(dist, d)
	}
	hw := (q.Hi - q.Lo) / 2
	if t.log && q.Lo > 0 {
		hw = math.Log(q.Hi/q.Lo) / 2
	}
	return report.RepsToDecide(q.N, hw, dist)
}

// cellValue is one referenced cell's estimate, or why there is none.
type cellValue func(r Ref) (report.Estimate, string)

// one is a bound of 1 of a test's own: a package var's address would be
// package state any test could change (the lint rule).
func one() *float64 { v := 1.0; return &v }

// tests turns a claim into its comparisons over the figures val reads;
// why says why it cannot be checked.
func (v *View) tests(c *Claim, val cellValue, exact bool) (ts []test, why string) {
	get := func(r Ref) report.Estimate {
		e, w := val(r)
		if w != "" && why == "" {
			why = w
		}
		return e
	}
	ratio := func(a, b Ref, above, below *float64) test {
		q := report.Ratio(get(a), get(b))
		return test{what: "(" + a.String() + ") / (" + b.String() + ")", q: q, above: above, below: below, exact: exact, log: true}
	}
	switch c.Kind {
	case "threshold":
		for _, r := range c.Cells {
			ts = append(ts, test{what: r.String(), q: get(r), above: c.Above, below: c.Below, exact: exact})
		}
	case "ratio":
		ts = append(ts, ratio(c.A, c.B, c.Above, c.Below))
	case "close":
		lo, hi := 1/(1+*c.Within), 1+*c.Within
		ts = append(ts, ratio(c.A, c.B, &lo, &hi))
	case "difference":
		q := report.Difference(get(c.A), get(c.B))
		ts = append(ts, test{what: "(" + c.A.String() + ") − (" + c.B.String() + ")", q: q, above: c.Above, below: c.Below, exact: exact})
	case "ranking":
		for i := 0; i+1 < len(c.Cells); i++ {
			ts = append(ts, ratio(c.Cells[i], c.Cells[i+1], one(), nil))
		}
	case "lowest", "highest":
		for _, r := range c.Cells {
			if c.Kind == "lowest" {
				ts = append(ts, ratio(r, c.Cell, one(), nil))
			} else {
				ts = append(ts, ratio(c.Cell, r, one(), nil))
			}
		}
	case "leads":
		for _, l := range c.Leaders {
			for _, r := range c.Cells {
				ts = append(ts, v.better(l, r, get, exact))
			}
		}
	case "ratios":
		for _, col := range v.ratioColumns(c) {
			a, b := Ref{c.A[0], c.A[1], col}, Ref{c.B[0], c.B[1], col}
			ts = append(ts, ratio(a, b, c.Above, c.Below))
		}
	case "crossover":
		return v.crossover(c, val, exact)
	}
	return ts, why
}

// better is the test that cell a is better than cell b by its table's
// figure's direction.
func (v *View) better(a, b Ref, get func(Ref) report.Estimate, exact bool) test {
	q := report.Ratio(get(a), get(b))
	if !v.higherBetter(a[0]) {
		q = report.Ratio(get(b), get(a))
	}
	return test{what: fmt.Sprintf("%s better than %s", a, b), q: q, above: one(), exact: exact, log: true}
}

func (v *View) higherBetter(table string) bool {
	if t := v.table(table); t != nil {
		if f, ok := report.LookupFigure(t.Figure); ok {
			return f.Higher
		}
	}
	return true
}

// ratioColumns are the columns a ratios claim bounds.
func (v *View) ratioColumns(c *Claim) []string {
	if len(c.Columns) > 0 {
		return c.Columns
	}
	if t := v.table(c.A[0]); t != nil {
		return t.Header
	}
	return nil
}

// crossover compares the claim's two rows column by column: A better
// above At, B better below it.
func (v *View) crossover(c *Claim, val cellValue, exact bool) ([]test, string) {
	t := v.table(c.A[0])
	if t == nil {
		return nil, "no table " + c.A[0]
	}
	higher := v.higherBetter(t.ID)
	var ts []test
	var whys []string
	above := 0
	for _, col := range t.Header {
		x, err := strconv.ParseFloat(strings.ReplaceAll(col, ",", ""), 64)
		if err != nil || x == *c.At {
			continue
		}
		a, b := Ref{c.A[0], c.A[1], col}, Ref{c.B[0], c.B[1], col}
		ea, wa := val(a)
		eb, wb := val(b)
		if wa != "" || wb != "" {
			whys = append(whys, strings.TrimPrefix(wa+"; "+wb, "; "))
			continue
		}
		win, lose := a, b // win is the one that should be better here
		if x < *c.At {
			win, lose = b, a
			eb, ea = ea, eb
		} else {
			above++
		}
		q := report.Ratio(ea, eb)
		if !higher {
			q = report.Ratio(eb, ea)
		}
		ts = append(ts, test{what: fmt.Sprintf("%s better than %s", win, lose), q: q, above: one(), exact: exact, log: true})
	}
	if above == 0 {
		return nil, fmt.Sprintf("no column above %s measured in both rows (%s)", num(*c.At), strings.Join(whys, "; "))
	}
	return ts, ""
}

// verdict judges the tests: holds when every one is decided true, does
// not hold when one is decided false, otherwise undecided.
func verdict(ts []test) (string, string, int) {
	var fails, open, all []string
	need := 0
	for _, t := range ts {
		o := t.decide()
		all = append(all, o.text)
		switch o.sign {
		case -1:
			fails = append(fails, o.text)
		case 0:
			open = append(open, o.text)
			need = max(need, o.need)
		}
	}
	switch {
	case len(fails) > 0:
		return DoesNotHold, strings.Join(fails, "; "), 0
	case len(open) > 0:
		r := strings.Join(open, "; ")
		if need > 0 {
			r += fmt.Sprintf("; about %d repetitions per cell would decide it", need)
		}
		return Undecided, r, need
	}
	return Holds, strings.Join(all, "; "), 0
}

// judge gives claim c its verdict here and on the published figures.
func (v *View) judge(c *Claim) ClaimView {
	cv := ClaimView{Claim: c, Deviations: v.deviationsOf(c)}
	pts, why := v.tests(c, v.publishedEstimate, true)
	if why != "" || len(pts) == 0 {
		cv.Published = notPublished
	} else {
		cv.Published, _, _ = verdict(pts)
	}
	switch {
	case c.PublishedOnly != "":
		cv.Verdict, cv.Reason = CannotCheck, "judged on the published figures only: "+oneLine(c.PublishedOnly)
		return cv
	case len(c.premises()) > 0:
		if ok, why := v.premise(c); !ok {
			cv.Verdict, cv.Reason = CannotCheck, why
			return cv
		}
	}
	ts, why := v.tests(c, v.measuredEstimate, false)
	if why != "" {
		cv.Verdict, cv.Reason = CannotCheck, why
		return cv
	}
	cv.Verdict, cv.Reason, cv.Need = verdict(ts)
	return cv
}

// deviationsOf are the declared deviations that can move c's verdict:
// those naming it, or a table one of its cells is in.
func (v *View) deviationsOf(c *Claim) []string {
	tables := map[string]bool{}
	for _, r := range append(append([]Ref{c.A, c.B, c.Cell}, c.Cells...), c.Leaders...) {
		if len(r) > 0 {
			tables[r[0]] = true
		}
	}
	var out []string
	for _, d := range v.Study.Deviations {
		if slices.ContainsFunc(d.Moves, func(m string) bool { return m == c.ID || tables[m] }) {
			out = append(out, d.ID)
		}
	}
	return out
}

func (v *View) table(id string) *Table {
	for _, tv := range v.Tables {
		if tv.Table.ID == id {
			return tv.Table
		}
	}
	return nil
}

func (v *View) measuredEstimate(r Ref) (report.Estimate, string) {
	c, ok := v.cell(r)
	switch {
	case !ok:
		return report.Estimate{}, "no cell " + r.String()
	case c.Measured == nil:
		return report.Estimate{}, r.String() + ": " + c.Why
	case c.Measured.Standin:
		return report.Estimate{}, r.String() + ": measured against the protocol stand-in, which is not a server (" + NoModern + ")"
	case c.Measured.Value == 0 && v.higherBetter(r[0]):
		return report.Estimate{}, r.String() + ": no operation completed"
	}
	return c.Measured.Estimate, ""
}

func (v *View) publishedEstimate(r Ref) (report.Estimate, string) {
	c, ok := v.cell(r)
	if !ok || c.Published == nil {
		return report.Estimate{}, "not published"
	}
	return report.Estimate{Value: *c.Published, Lo: *c.Published, Hi: *c.Published, N: 1}, ""
}
