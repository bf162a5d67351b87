package result

import (
	"fmt"
	"strings"
)

// A Figure declares one of a run's extra figures: its unit, and how the
// values of the shards of one test combine into the merged run's. A family
// declares each figure where it writes it (Run.SetExtra), so that merge and
// the reporters read the rule from the document and never guess it from
// the figure's name.
type Figure struct {
	Unit  string    `json:"unit"`
	Merge MergeRule `json:"merge"`
	// Of names what a MergeMean figure is weighted by ("ops", the default:
	// the run's operations; "rows": its rows; else another extra figure of
	// the run), or the mean a MergeStddev figure is pooled with.
	Of string `json:"of,omitempty"`
}

// MergeRule is how the shards' values of a figure combine.
type MergeRule string

// The merge rules. Histograms (latency, service, lag, phases) are not extra
// figures: merge always adds them.
const (
	// MergeSum adds the values: counts, totals, and rates over the same
	// window.
	MergeSum MergeRule = "sum"
	// MergeMean averages the values weighted by Figure.Of, which is exact
	// for a per-unit figure (a total divided by Of).
	MergeMean MergeRule = "mean"
	// MergeMax and MergeMin keep the highest and the lowest value.
	MergeMax MergeRule = "max"
	MergeMin MergeRule = "min"
	// MergeStddev pools the shards' standard deviations with the mean
	// Figure.Of names, weighted as that mean.
	MergeStddev MergeRule = "stddev"
	// MergeEqual keeps a value every shard agrees on, and leaves it out with
	// a warning otherwise: a percentile, or a setting-like figure.
	MergeEqual MergeRule = "equal"
)

// Sum declares a figure that shards add.
func Sum(unit string) Figure { return Figure{Unit: unit, Merge: MergeSum} }

// Mean declares a per-unit figure, averaged over shards weighted by of
// ("ops", "rows" or another extra figure).
func Mean(unit, of string) Figure { return Figure{Unit: unit, Merge: MergeMean, Of: of} }

// Max declares a figure whose merged value is the shards' highest.
func Max(unit string) Figure { return Figure{Unit: unit, Merge: MergeMax} }

// Min declares a figure whose merged value is the shards' lowest.
func Min(unit string) Figure { return Figure{Unit: unit, Merge: MergeMin} }

// Stddev declares the standard deviation that goes with the mean figure
// named mean.
func Stddev(unit, mean string) Figure { return Figure{Unit: unit, Merge: MergeStddev, Of: mean} }

// Equal declares a figure shards must agree on, such as a percentile,
// which cannot be merged from its values.
func Equal(unit string) Figure { return Figure{Unit: unit, Merge: MergeEqual} }

// SetExtra records the extra figure name with value v, declared as f.
func (r *Run) SetExtra(name string, v float64, f Figure) {
	if r.Extra == nil {
		r.Extra = map[string]float64{}
	}
	if r.Figures == nil {
		r.Figures = map[string]Figure{}
	}
	r.Extra[name] = v
	r.Figures[name] = f
}

// Undeclared lists the extra figures the run has no declaration for: a
// document written before declarations existed.
func (r *Run) Undeclared() []string {
	var out []string
	for k := range r.Extra {
		if _, ok := r.Figures[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// Declarations declares the extra figures a family writes, by name. A name
// may hold one "*", which stands for any text (a script or command
// number); a "*" in the figure's Of stands for the same text.
type Declarations map[string]Figure

// Lookup returns the declaration of the figure name.
func (d Declarations) Lookup(name string) (Figure, bool) {
	if f, ok := d[name]; ok {
		return f, true
	}
	for pattern, f := range d {
		prefix, suffix, ok := strings.Cut(pattern, "*")
		if !ok || len(name) < len(prefix)+len(suffix) || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, suffix) {
			continue
		}
		f.Of = strings.ReplaceAll(f.Of, "*", name[len(prefix):len(name)-len(suffix)])
		return f, true
	}
	return Figure{}, false
}

// Set records the extra figure name with value v under its declaration. A
// figure without one is a bug in the family that writes it: Set panics, so
// that any test reaching the write fails.
func (d Declarations) Set(r *Run, name string, v float64) {
	f, ok := d.Lookup(name)
	if !ok {
		panic(fmt.Sprintf("result: extra figure %q is not declared", name))
	}
	r.SetExtra(name, v, f)
}
