package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"

	"github.com/dbmeter/dbmeter/internal/result"
)

// compare reports, per matched run group, every figure of the figures
// layer's catalogue that has a label (Figure.label), in its order, each
// pooled and given its interval as the catalogue does.

func anyRun(rs []*result.Run, f func(*result.Run) bool) bool { return slices.ContainsFunc(rs, f) }

// group is the repetitions of one family/target/workload/params, from
// one side's documents.
type group struct {
	key  string
	doc  *result.Document // the document of the first run, which declares its settings
	runs []*result.Run
}

// matchKey identifies what a run of doc measured: its defining params
// (result.Document.Defining), but for the knobs compared (vary) and the
// --param list that set them.
func matchKey(doc *result.Document, r *result.Run, vary []string) string {
	p := defining(doc, r)
	if len(vary) > 0 {
		delete(p, "param")
		for _, k := range vary {
			delete(p, k)
		}
	}
	return r.Family + "\x00" + r.Target + "\x00" + r.Workload + "\x00" + pairs(p)
}

// touches says whether a group's runs have one of the knobs compared: an
// engine without it is not what the comparison is about.
func (g group) touches(vary []string) bool {
	if len(vary) == 0 {
		return true
	}
	return slices.ContainsFunc(vary, func(k string) bool { _, ok := g.runs[0].Params[k]; return ok })
}

// groups gathers the runs of every document of one side by matchKey: runs
// of one test from several documents are its repetitions.
func groups(side []Source, vary []string) []group {
	var out []group
	idx := map[string]int{}
	for _, s := range side {
		for i := range s.Doc.Runs {
			r := &s.Doc.Runs[i]
			k := matchKey(s.Doc, r, vary)
			j, ok := idx[k]
			if !ok {
				j = len(out)
				idx[k] = j
				out = append(out, group{key: k, doc: s.Doc})
			}
			out[j].runs = append(out[j].runs, r)
		}
	}
	return out
}

// ErrNothingCompared is CompareSides' error when no run group was
// compared.
var ErrNothingCompared = errors.New("nothing compared")

// compareLegend says what compare's columns are, once under its header.
const compareLegend = `figures: each side's repetitions pooled as the tables pool them (operations over measured seconds; latencies from the added histograms)
±: half-width of the 95% confidence interval of the mean of the repetitions (Student's t), as the tables'; of a single repetition: a rate over its progress intervals, a percentile from its histogram, a mean over its operations
significance: Mann-Whitney U test over the repetitions at alpha 0.05, as benchstat`

// Compare compares the documents base and new (CompareSides).
func Compare(w io.Writer, base, new Source, knobs ...string) error {
	return CompareSides(w, []Source{base}, []Source{new}, knobs...)
}

// CompareSides prints, for each run group present on both sides, every
// figure's base and new value (the repetitions of all of a side's
// documents pooled), its spread, the change, and whether the change is
// significant by a Mann-Whitney U test over the repetitions, as benchstat
// judges it. Runs match by their defining params
// (result.Document.Defining): how long they ran, how they were observed
// and the lists that selected them do not count. With knobs named, runs
// whose params differ only in them match, and only the groups that have
// one of them are compared. It fails when no group was compared.
func CompareSides(w io.Writer, base, new []Source, knobs ...string) error {
	knobs = slices.Clone(knobs)
	for i, k := range knobs {
		knobs[i] = result.SettingName(k) // a flag's spelling names the setting too
	}
	bg, ng := groups(base, knobs), groups(new, knobs)
	nidx := map[string]group{}
	for _, g := range ng {
		nidx[g.key] = g
	}
	for _, s := range base {
		fmt.Fprintf(w, "base: %s  %s\n", s.Name, s.Doc.Command)
	}
	for _, s := range new {
		fmt.Fprintf(w, "new:  %s  %s\n", s.Name, s.Doc.Command)
	}
	fmt.Fprintln(w, compareLegend)
	for _, d := range envDiff(base[0].Doc.Env, new[0].Doc.Env) {
		fmt.Fprintf(w, "note: the environment differs: %s\n", d)
	}
	vary := varyingParams(append(slices.Clone(bg), ng...))
	matched := map[string]bool{}
	var untouched []string
	var speedups []float64 // each group's throughput, new over base
	for _, b := range bg {
		n, ok := nidx[b.key]
		if !ok {
			continue
		}
		matched[b.key] = true
		if !b.touches(knobs) {
			untouched = append(untouched, groupName(b, vary))
			continue
		}
		fmt.Fprintln(w)
		if err := compareGroup(w, b, n, vary, knobs); err != nil {
			return err
		}
		speedups = append(speedups, throughputRatio(b.runs, n.runs)...)
	}
	machineCauses(w, base[0].Doc, new[0].Doc, speedups) // the first document of each side
	printUnmatched(w, bg, ng, matched, vary)
	if len(untouched) > 0 {
		fmt.Fprintf(w, "\nnot compared, as %s does not apply to them: %s\n", strings.Join(knobs, ", "), strings.Join(untouched, "; "))
	}
	if len(matched) == len(untouched) && len(knobs) > 0 {
		return fmt.Errorf("%w: no run has %s among its params", ErrNothingCompared, strings.Join(knobs, " or "))
	}
	if len(matched) == 0 {
		return fmt.Errorf("%w: no run matches between the two sides (same family, target, workload and defining params; how long they ran, how they were observed and the lists that selected them do not count)", ErrNothingCompared)
	}
	return nil
}

// printUnmatched lists the groups of one side that the other lacks.
func printUnmatched(w io.Writer, bg, ng []group, matched map[string]bool, vary []string) {
	var only []string
	for _, g := range bg {
		if !matched[g.key] {
			only = append(only, "only in base: "+groupName(g, vary))
		}
	}
	for _, g := range ng {
		if !matched[g.key] {
			only = append(only, "only in new:  "+groupName(g, vary))
		}
	}
	if len(only) > 0 {
		fmt.Fprintln(w)
		for _, o := range only {
			fmt.Fprintln(w, o)
		}
	}
}

func groupName(g group, vary []string) string {
	r := g.runs[0]
	s := fmt.Sprintf("%s %s %s", r.Family, r.Target, r.Workload)
	for _, k := range vary {
		if v, ok := r.Params[k]; ok {
			s += " " + result.Label(k) + "=" + v
		}
	}
	return s
}

// varyingParams are the defining params whose values are not the same in
// every group: the ones worth printing in a group's name.
func varyingParams(gs []group) []string {
	vals := map[string]map[string]bool{}
	for _, g := range gs {
		for k, v := range defining(g.doc, g.runs[0]) {
			if vals[k] == nil {
				vals[k] = map[string]bool{}
			}
			vals[k][v] = true
		}
	}
	var out []string
	for k, vs := range vals {
		if len(vs) > 1 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func compareGroup(w io.Writer, b, n group, vary, knobs []string) error {
	r := b.runs[0]
	name := groupName(b, vary)
	for _, k := range knobs {
		if bv, nv := r.Params[k], n.runs[0].Params[k]; bv != nv {
			name += fmt.Sprintf(", %s %s → %s", result.Label(k), bv, nv)
		}
	}
	fmt.Fprintf(w, "%s  (%s loop, workers %d", name, r.Mode, r.Workers)
	if r.Mode == "open" {
		fmt.Fprintf(w, ", %s/s", Count(r.Rate))
	}
	fmt.Fprintf(w, "; base n=%d, new n=%d)\n", len(b.runs), len(n.runs))
	if why := noneCompleted(opsOf(b.runs), opsOf(n.runs)); why != "" {
		fmt.Fprintf(w, "  not compared: %s\n", why)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  figure\tbase\tnew\tchange\tsignificance")
	all := append(slices.Clone(b.runs), n.runs...)
	for _, f := range figureCatalogue {
		if f.label == "" || (f.show != nil && !f.show(all)) {
			continue
		}
		bs, ns := sideOf(f, b.runs), sideOf(f, n.runs)
		ch, sig := change(bs.v, ns.v), ""
		if why := notComparable(bs, ns); why != "" {
			ch, sig = "", "not comparable: "+why
		} else {
			sig = verdict(f, bs.sample, ns.sample, bs.v, ns.v)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", f.label, bs.cell(f), ns.cell(f), ch, sig)
	}
	return tw.Flush()
}

func opsOf(rs []*result.Run) int64 {
	var ops int64
	for _, r := range rs {
		ops += r.Ops
	}
	return ops
}

// noneCompleted says which side completed no operation, "" when both did.
func noneCompleted(b, n int64) string {
	switch {
	case b == 0 && n == 0:
		return "no operation completed on either side"
	case b == 0:
		return "no operation completed in base"
	case n == 0:
		return "no operation completed in new"
	}
	return ""
}

// sideFigure is one figure of one side: its pooled value, the sample of
// its repetitions' values, and its spread (the half-width of the interval
// as a share of the value).
type sideFigure struct {
	v        float64
	sample   *benchmath.Sample
	spread   float64
	hasRange bool
}

// sideOf is one side's figure as the figures layer pools it, with its
// interval (Figure.Estimate).
func sideOf(f Figure, rs []*result.Run) sideFigure {
	s := sideFigure{v: math.NaN(), sample: benchmath.NewSample(values(rs, f.get), &benchmath.DefaultThresholds)}
	if e, ok := f.Estimate(rs); ok {
		s.v = e.Value
		s.spread, s.hasRange = e.Spread(), e.HasInterval() && e.Value != 0
	}
	return s
}

// cell is the figure with its ±; a spread larger than the figure is left
// out, as notComparable says instead.
func (s sideFigure) cell(f Figure) string {
	v := f.format(s.v)
	if !s.hasRange || s.spread > 1 {
		return v
	}
	return v + " ±" + strconv.Itoa(int(math.Round(s.spread*100))) + "%"
}

// notComparable says in words why a figure cannot be compared, "" when it
// can.
func notComparable(b, n sideFigure) string {
	switch wb, wn := b.hasRange && b.spread > 1, n.hasRange && n.spread > 1; {
	case wb && wn:
		return "spread larger than the figure on both sides"
	case wb:
		return "spread larger than the figure in base"
	case wn:
		return "spread larger than the figure in new"
	}
	if b.v == 0 && n.v != 0 {
		return "base is 0, so no change can be a share of it"
	}
	return ""
}

func values(rs []*result.Run, get func(*result.Run) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = get(r)
	}
	return out
}

func change(b, n float64) string {
	switch {
	case b == n:
		return "0.00%"
	case b == 0:
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", (n/b-1)*100)
}

// minReps is the fewest repetitions per side with which a two-sided
// Mann-Whitney U test can reach alpha at all: with n against n, the
// smallest p-value it can give is 2/C(2n, n) (n=3: 0.1; n=4: 0.029).
func minReps(alpha float64) int {
	for n := 1; ; n++ {
		if 2/binomial(2*n, n) <= alpha {
			return n
		}
	}
}

func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// verdict says whether the change is significant and which way it goes;
// "~" means no difference could be shown.
func verdict(f Figure, b, n *benchmath.Sample, bc, nc float64) string {
	c := benchmath.AssumeNothing.Compare(b, n)
	if c.P > c.Alpha {
		if need := minReps(c.Alpha); c.N1 < need && c.N2 < need {
			return fmt.Sprintf("~ (n too small: %d+%d, need ≥%d repetitions each)", c.N1, c.N2, need)
		}
		return fmt.Sprintf("~ (%s)", c)
	}
	dir := "better"
	if (nc > bc) != f.Higher {
		dir = "worse"
	}
	if nc == bc {
		dir = "changed"
	}
	return fmt.Sprintf("%s (%s)", dir, c)
}

// envDiff lists what differs between two environments in ways that move
// numbers.
func envDiff(a, b result.Env) []string {
	var out []string
	add := func(name, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s %q → %q", name, x, y))
		}
	}
	add("CPU", a.CPUModel, b.CPUModel)
	add("CPUs", fmt.Sprint(a.CPUs), fmt.Sprint(b.CPUs))
	add("GOMAXPROCS", fmt.Sprint(a.GOMAXPROCS), fmt.Sprint(b.GOMAXPROCS))
	add("kernel", a.Kernel, b.Kernel)
	add("Go", a.Go, b.Go)
	add("filesystem", a.Disk.FS, b.Disk.FS)
	return out
}

// GoBench writes every run as a line of Go's benchmark format, one per
// repetition, so benchstat can compare documents: the family and the
// params that define a run become configuration lines, the target and
// workload the benchmark name, and each figure a value with its unit.
func GoBench(w io.Writer, srcs []Source) error {
	bw := &errWriter{w: w}
	for i, s := range srcs {
		d := s.Doc
		if i > 0 {
			bw.printf("\n")
		}
		bw.printf("goos: %s\ncpu: %s\ndbmeter: %s\n", d.Env.OS, d.Env.CPUModel, d.Tool.Version)
		bw.printf("Unit ops/s better=higher\nUnit rows/s better=higher\n")
		cur := map[string]string{}
		for j := range d.Runs {
			r := &d.Runs[j]
			if r.Ops == 0 || r.DurationS <= 0 {
				continue
			}
			conf := defining(d, r)
			conf["family"] = r.Family
			conf["mode"] = r.Mode
			for _, k := range sortedKeys(cur) {
				if _, ok := conf[k]; !ok {
					bw.printf("%s:\n", configKey(k))
					delete(cur, k)
				}
			}
			for _, k := range sortedKeys(conf) {
				if v := oneLineValue(conf[k]); cur[k] != v {
					bw.printf("%s: %s\n", configKey(k), v)
					cur[k] = v
				}
			}
			bw.printf("%s\n", benchLine(r, d.Env.GOMAXPROCS))
		}
	}
	return bw.err
}

func benchLine(r *result.Run, procs int) string {
	name := fmt.Sprintf("Benchmark%s/target=%s/workload=%s", strings.ToUpper(r.Family[:1])+r.Family[1:], nameValue(r.Target), nameValue(r.Workload))
	if procs > 1 {
		name += fmt.Sprintf("-%d", procs)
	}
	l := r.Latency
	s := fmt.Sprintf("%s %d %.4g ns/op %.6g ops/s", name, r.Ops, r.DurationS*1e9/float64(r.Ops), r.OpsPerS)
	if r.RowsPerS > 0 {
		s += fmt.Sprintf(" %.6g rows/s", r.RowsPerS)
	}
	s += fmt.Sprintf(" %d p50-ns %d p90-ns %d p99-ns %d p99.9-ns %d max-ns %.4g mean-ns", l.P50, l.P90, l.P99, l.P999, l.Max, l.Mean)
	if r.Errors > 0 {
		s += fmt.Sprintf(" %d errors", r.Errors)
	}
	return s + fmt.Sprintf(" %.4g cpu-ns/op %.4g allocs/op", r.Client.CPUNsPerOp, r.Client.AllocsPerOp)
}

// nameValue keeps a value inside one part of a benchmark name: a slash
// would start a sub-benchmark and a space would end the name.
func nameValue(s string) string {
	return strings.NewReplacer("/", "|", " ", "_", "\t", "_").Replace(s)
}

// configKey makes a param name a valid configuration key: no spaces or
// upper-case letters, which would make the line a benchmark or plain text.
func configKey(k string) string {
	if k == "" || k[0] < 'a' || k[0] > 'z' {
		k = "p" + k // a key must start with a lower-case letter
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == ':' || r == '\t':
			return '-'
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, k)
}

func oneLineValue(v string) string { return strings.Join(strings.Fields(v), " ") }

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}
