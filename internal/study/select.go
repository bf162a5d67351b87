package study

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// fieldNames are the run fields a table's rows and columns are chosen by;
// params.NAME picks a setting.
var fieldNames = []string{"family", "target", "workload", "server", "mode", "workers"}

func isField(name string) bool {
	return slices.Contains(fieldNames, name) || (strings.HasPrefix(name, "params.") && len(name) > len("params."))
}

// field is run's value of a field name.
func field(r *result.Run, name string) string {
	switch name {
	case "family":
		return r.Family
	case "target":
		return r.Target
	case "workload":
		return r.Workload
	case "server":
		return r.Server
	case "mode":
		return r.Mode
	case "workers":
		return strconv.Itoa(r.Workers)
	}
	// A study file written before settings were keyed by declared names
	// spells them as flags (params.key-size): the same setting.
	return r.Params[result.SettingName(strings.TrimPrefix(name, "params."))]
}

// Measured is one cell's figure on this machine, from the figures layer
// that reports share (report.Estimate): its repetitions folded as the
// family tables fold them, its 95 % interval, the repetitions it rests
// on and each one's own value.
type Measured struct {
	report.Estimate
	// Standin marks figures measured against the protocol stand-in: not a
	// server, never compared with a published number.
	Standin bool
}

// convert returns the factor from a figure's base unit into unit.
func convert(name, unit string) (float64, bool) {
	f, ok := report.LookupFigure(name)
	if !ok {
		return 0, false
	}
	return f.Factor(unit)
}

func figureNames() []string { return report.FigureNames() }

// measure is runs' figure in the table's unit.
func measure(name, unit string, runs []*result.Run) (Measured, bool) {
	f, ok := report.LookupFigure(name)
	if !ok {
		return Measured{}, false
	}
	k, ok := f.Factor(unit)
	if !ok {
		return Measured{}, false
	}
	e, ok := f.Estimate(runs)
	if !ok {
		return Measured{}, false
	}
	return Measured{Estimate: e.Scale(k)}, true
}

// selectRuns keeps the runs of t's Where, then groups them by the values
// of its rows and columns fields.
func (t *Table) selectRuns(runs []result.Run) (keep []*result.Run) {
	for i := range runs {
		r := &runs[i]
		ok := true
		for k, want := range t.Where {
			if field(r, k) != want {
				ok = false
			}
		}
		if ok {
			keep = append(keep, r)
		}
	}
	return keep
}

// key is the run field value a published label stands for: its Names
// entry or itself; #N is the Nth distinct value in run order.
func (t *Table) key(label, by string, runs []*result.Run) string {
	if v, ok := t.Names[label]; ok {
		label = v
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(label, "#")); err == nil && strings.HasPrefix(label, "#") {
		var seen []string
		for _, r := range runs {
			if v := field(r, by); !slices.Contains(seen, v) {
				seen = append(seen, v)
			}
		}
		if n >= 1 && n <= len(seen) {
			return seen[n-1]
		}
		return ""
	}
	return label
}

// cellRuns are the runs of one cell.
func (t *Table) cellRuns(runs []*result.Run, row, col string) []*result.Run {
	rk, ck := t.key(row, t.Rows, runs), t.key(col, t.Columns, runs)
	if rk == "" || ck == "" {
		return nil
	}
	var out []*result.Run
	for _, r := range runs {
		if field(r, t.Rows) == rk && field(r, t.Columns) == ck {
			out = append(out, r)
		}
	}
	return out
}
