package board

import (
	"fmt"
	"math"
	"strings"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/study"
)

// Kind is one kind of figure (what bounds it and what it is) summed up
// per machine.
type Kind struct {
	Name string
	Dep  *report.Dependence
	// Unnormalised says why the kind is not normalised (Dep nil).
	Unnormalised string
	// Cells counts the kind's cells; Common those every machine has.
	Cells, Common int
	// Explained is the share of the spread across machines (the variance
	// of the logarithms, summed over the common cells) that the
	// normalisation removes; NaN when not normalised or no spread.
	Explained float64
	Rows      []KindRow // one per machine
}

// KindRow is one machine's summary of a kind.
type KindRow struct {
	// Geo is the geometric mean of the machine's ratios to the best over
	// the common cells, GeoNorm the same normalised; Penalised counts
	// every cell, a missing one at PenaltyFactor × the cell's worst
	// ratio.
	Geo, GeoNorm, Penalised float64
	Missing                 int
	// Beside the baseline, over the cells both have: the median speed
	// ratio (above 1: faster), raw and normalised; how many cells fall in
	// the baseline's 95 % interval, raw and normalised, of Compared (the
	// cells where the baseline has an interval); and the share of the
	// difference the reference explains (1 − |log Norm| / |log Raw|).
	Raw, Norm                  float64
	RawWithin, Within, Compare int
	Explains                   float64
	cells                      int
}

func kinds(b *Board) []*Kind {
	var out []*Kind
	by := map[string]*Kind{}
	members := map[string][]*Cell{}
	for _, c := range b.Cells {
		k := by[c.Kind]
		if k == nil {
			k = &Kind{Name: c.Kind, Dep: c.Dep, Unnormalised: c.Unnormalised}
			by[c.Kind] = k
			out = append(out, k)
		}
		members[c.Kind] = append(members[c.Kind], c)
	}
	for _, k := range out {
		summarise(b, k, members[k.Name])
	}
	return out
}

// summarise fills a kind's rows from its cells.
func summarise(b *Board, k *Kind, cs []*Cell) {
	k.Cells = len(cs)
	k.Rows = make([]KindRow, len(b.Machines))
	logs := make([][3]float64, len(b.Machines)) // sum log ratio, sum log norm ratio, sum log penalised
	var rawVar, normVar float64
	for _, c := range cs {
		worst := 1.0
		common := true
		for _, v := range c.Values {
			if v.present() {
				worst = math.Max(worst, v.Ratio)
			} else {
				common = false
			}
		}
		for m, v := range c.Values {
			if v.present() {
				logs[m][2] += math.Log(v.Ratio)
			} else {
				logs[m][2] += math.Log(PenaltyFactor * worst)
				k.Rows[m].Missing++
			}
		}
		if !common {
			continue
		}
		k.Common++
		var raw, norm []float64
		for m, v := range c.Values {
			logs[m][0] += math.Log(v.Ratio)
			logs[m][1] += math.Log(v.NormRatio)
			raw, norm = append(raw, math.Log(v.V)), append(norm, math.Log(v.Norm))
		}
		if len(raw) > 1 {
			_, sr := meanSD(raw)
			_, sn := meanSD(norm)
			rawVar, normVar = rawVar+sr*sr, normVar+sn*sn
		}
	}
	for m := range k.Rows {
		r := &k.Rows[m]
		r.Geo, r.GeoNorm = math.NaN(), math.NaN()
		if k.Common > 0 {
			r.Geo, r.GeoNorm = math.Exp(logs[m][0]/float64(k.Common)), math.Exp(logs[m][1]/float64(k.Common))
		}
		r.Penalised = math.Exp(logs[m][2] / float64(len(cs)))
		beside(r, cs, m, b.Baseline)
	}
	k.Explained = math.NaN()
	if k.Dep != nil && rawVar > 0 && !math.IsNaN(normVar) {
		k.Explained = 1 - normVar/rawVar
	}
}

// beside puts machine m's cells beside the baseline's.
func beside(r *KindRow, cs []*Cell, m, base int) {
	var raw, norm []float64
	for _, c := range cs {
		v, b := c.Values[m], c.Values[base]
		if !v.present() || !b.present() {
			continue
		}
		speed := func(x, y float64) float64 {
			if c.Higher {
				return x / y
			}
			return y / x
		}
		raw = append(raw, speed(v.V, b.V))
		if !math.IsNaN(v.Norm) && !math.IsNaN(b.Norm) {
			norm = append(norm, speed(v.Norm, b.Norm))
		}
		if math.IsNaN(b.Lo) {
			continue
		}
		r.Compare++
		if v.V >= b.Lo && v.V <= b.Hi {
			r.RawWithin++
		}
		// The baseline's interval, normalised the same way as its figure.
		if !math.IsNaN(v.Norm) && v.Norm >= b.NormLo && v.Norm <= b.NormHi {
			r.Within++
		}
	}
	r.cells = len(raw)
	r.Raw, r.Norm, r.Explains = median(raw), median(norm), math.NaN()
	// The share of the median difference the reference removes, in log
	// terms: 0.49× raw and 0.94× normalised is 91 %.
	if lr := math.Abs(math.Log(r.Raw)); lr > 0.01 && !math.IsNaN(r.Norm) {
		r.Explains = 1 - math.Abs(math.Log(r.Norm))/lr
	}
}

// Verdict is one machine's verdict on a study's claim, in four kinds.
const (
	Held        = "held"
	NotHeld     = "did not hold"
	Undecided   = "undecided"
	NotChecked  = "could not be checked"
	verdictKind = 4
)

// ClaimCount is one claim's verdicts across the machines.
type ClaimCount struct {
	ID, Text string
	// Counts are by Held, NotHeld, Undecided, NotChecked; Machines lists
	// the machines of each.
	Counts   map[string]int
	Machines map[string][]string
}

func claims(b *Board) []ClaimCount {
	var out []ClaimCount
	for i := range b.Study.Claims {
		c := &b.Study.Claims[i]
		cc := ClaimCount{ID: c.ID, Text: c.Text, Counts: map[string]int{}, Machines: map[string][]string{}}
		for _, m := range b.Machines {
			v := verdictOf(m.view.Claims[i].Verdict)
			cc.Counts[v]++
			cc.Machines[v] = append(cc.Machines[v], m.Name)
		}
		out = append(out, cc)
	}
	return out
}

// verdictOf maps a study verdict to the board's four.
func verdictOf(v string) string {
	switch {
	case v == study.Holds || strings.HasPrefix(v, "holds"):
		return Held
	case v == study.DoesNotHold || strings.HasPrefix(v, "does not"):
		return NotHeld
	case v == study.Undecided:
		return Undecided
	}
	return NotChecked
}

// Explanation is the page's sentence for one machine and kind: how far
// it is from the baseline, raw and normalised, and how much of it the
// reference explains, or by how much it does not.
func (k *Kind) Explanation(b *Board, m int) string {
	r := k.Rows[m]
	if m == b.Baseline || r.cells == 0 {
		return ""
	}
	if math.Abs(math.Log(r.Raw)) < math.Log(1.05) && (r.Compare == 0 || r.RawWithin == r.Compare) {
		return fmt.Sprintf("%s: the baseline's speed within 5 %% (median over %d cells): nothing to explain", b.Machines[m].Name, r.cells)
	}
	s := fmt.Sprintf("%s: %.2f× the baseline's speed (median over %d cells)", b.Machines[m].Name, r.Raw, r.cells)
	if k.Dep == nil || math.IsNaN(r.Norm) {
		return s + "; not normalised (" + k.Unnormalised + ")"
	}
	s += fmt.Sprintf(", %.2f× once divided by the %s", r.Norm, probeNames[k.Dep.Probe])
	if r.Compare > 0 {
		s += fmt.Sprintf("; %d of %d cells within the baseline's 95 %% interval once normalised (%d raw)", r.Within, r.Compare, r.RawWithin)
	}
	switch {
	case math.IsNaN(r.Explains):
		s += "; the machine is not slower or faster than the baseline here, so there is nothing to explain"
	case r.Within == r.Compare && r.Compare > 0:
		s += fmt.Sprintf(": the reference explains the difference (%.0f %% of the median one)", 100*r.Explains)
	default:
		s += fmt.Sprintf(": the reference explains %.0f %% of the difference; once normalised the cells are still %.0f %% off the baseline (median)", 100*math.Max(0, r.Explains), 100*math.Abs(r.Norm-1))
	}
	return s
}

// SpreadLine says how much of the spread across machines the reference
// explains: the share of the variance of the cells' logarithms that the
// normalisation removes, or by how much it adds to it.
func (k *Kind) SpreadLine() string {
	switch x := k.Explained; {
	case k.Dep == nil:
		return "not normalised: " + k.Unnormalised
	case math.IsNaN(x):
		return "the machines do not differ here: no spread to explain"
	case x < 0:
		return fmt.Sprintf("the reference does not explain the spread across machines: normalised, the variance of the cells' logarithms grows by %.0f %%", -100*x)
	}
	return fmt.Sprintf("the reference explains %.0f %% of the spread across machines (of the variance of the cells' logarithms)", 100*k.Explained)
}
