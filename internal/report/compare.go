package report

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A figure is one number compare reports per matched run group.
type figure struct {
	name   string
	get    func(r *result.Run) float64
	format func(float64) string
	higher bool                        // higher is better
	show   func(rs []*result.Run) bool // nil: always
}

func anyRun(rs []*result.Run, f func(*result.Run) bool) bool { return slices.ContainsFunc(rs, f) }

var figures = []figure{
	{name: "ops/s", get: func(r *result.Run) float64 { return r.OpsPerS }, format: Count, higher: true},
	{name: "rows/s", get: func(r *result.Run) float64 { return r.RowsPerS }, format: Count, higher: true,
		show: func(rs []*result.Run) bool { return anyRun(rs, func(r *result.Run) bool { return r.RowsPerS > 0 }) }},
	{name: "p50", get: func(r *result.Run) float64 { return float64(r.Latency.P50) }, format: nanos},
	{name: "p90", get: func(r *result.Run) float64 { return float64(r.Latency.P90) }, format: nanos},
	{name: "p99", get: func(r *result.Run) float64 { return float64(r.Latency.P99) }, format: nanos},
	{name: "p99.9", get: func(r *result.Run) float64 { return float64(r.Latency.P999) }, format: nanos},
	{name: "max", get: func(r *result.Run) float64 { return float64(r.Latency.Max) }, format: nanos},
	{name: "mean", get: func(r *result.Run) float64 { return r.Latency.Mean }, format: nanos},
	{name: "errors", get: func(r *result.Run) float64 { return float64(r.Errors) }, format: Count,
		show: func(rs []*result.Run) bool { return anyRun(rs, func(r *result.Run) bool { return r.Errors > 0 }) }},
	{name: "CPU/op", get: func(r *result.Run) float64 { return r.Client.CPUNsPerOp }, format: nanos},
	{name: "allocs/op", get: func(r *result.Run) float64 { return r.Client.AllocsPerOp }, format: func(v float64) string { return fmt.Sprintf("%.2f", v) }},
}

// group is the repetitions of one family/target/workload/params.
type group struct {
	key  string
	doc  *result.Document // the document that declares the runs' settings
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

func groups(doc *result.Document, vary []string) []group {
	var out []group
	idx := map[string]int{}
	for i := range doc.Runs {
		r := &doc.Runs[i]
		k := matchKey(doc, r, vary)
		j, ok := idx[k]
		if !ok {
			j = len(out)
			idx[k] = j
			out = append(out, group{key: k, doc: doc})
		}
		out[j].runs = append(out[j].runs, r)
	}
	return out
}

// Compare prints, for each run group present in both documents, every
// figure's base and new median, the change, and whether the change is
// significant by a Mann-Whitney U test over the repetitions, as benchstat
// judges it. With knobs named, runs whose params differ only in
// them match, and only the groups that have one of them are compared. It
// fails when no group was compared.
func Compare(w io.Writer, base, new Source, knobs ...string) error {
	bg, ng := groups(base.Doc, knobs), groups(new.Doc, knobs)
	nidx := map[string]group{}
	for _, g := range ng {
		nidx[g.key] = g
	}
	fmt.Fprintf(w, "base: %s  %s\n", base.Name, base.Doc.Command)
	fmt.Fprintf(w, "new:  %s  %s\n", new.Name, new.Doc.Command)
	for _, d := range envDiff(base.Doc.Env, new.Doc.Env) {
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
	machineCauses(w, base.Doc, new.Doc, speedups)
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
	if len(untouched) > 0 {
		fmt.Fprintf(w, "\nnot compared, as %s does not apply to them: %s\n", strings.Join(knobs, ", "), strings.Join(untouched, "; "))
	}
	if len(only) > 0 {
		fmt.Fprintln(w)
		for _, o := range only {
			fmt.Fprintln(w, o)
		}
	}
	if len(matched) == len(untouched) {
		hint := "to compare settings of a knob, name it: --vary KNOB"
		if len(knobs) > 0 {
			hint = "no run has " + strings.Join(knobs, " or ") + " among its params"
		}
		return fmt.Errorf("nothing compared: no run matches between the two documents (same family, target, workload and params, apart from how long and how they were observed); %s", hint)
	}
	return nil
}

func groupName(g group, vary []string) string {
	r := g.runs[0]
	s := fmt.Sprintf("%s %s %s", r.Family, r.Target, r.Workload)
	for _, k := range vary {
		if v, ok := r.Params[k]; ok {
			s += " " + k + "=" + v
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
			name += fmt.Sprintf(", %s %s → %s", k, bv, nv)
		}
	}
	fmt.Fprintf(w, "%s  (%s loop, workers %d", name, r.Mode, r.Workers)
	if r.Mode == "open" {
		fmt.Fprintf(w, ", %s/s", Count(r.Rate))
	}
	fmt.Fprintf(w, "; base n=%d, new n=%d)\n", len(b.runs), len(n.runs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  figure\tbase\tnew\tchange\tsignificance")
	all := append(slices.Clone(b.runs), n.runs...)
	for _, f := range figures {
		if f.show != nil && !f.show(all) {
			continue
		}
		bv, nv := values(b.runs, f.get), values(n.runs, f.get)
		bs := benchmath.NewSample(bv, &benchmath.DefaultThresholds)
		ns := benchmath.NewSample(nv, &benchmath.DefaultThresholds)
		bc, nc := median(bv), median(nv)
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", f.name, withRange(f.format(bc), bs), withRange(f.format(nc), ns), change(bc, nc), verdict(f, bs, ns, bc, nc))
	}
	return tw.Flush()
}

func values(rs []*result.Run, get func(*result.Run) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = get(r)
	}
	return out
}

// withRange adds the 95% confidence interval of the median, as benchstat
// prints it, when the sample is big enough to have a finite one.
func withRange(v string, s *benchmath.Sample) string {
	if len(s.Values) < 2 {
		return v
	}
	r := benchmath.AssumeNothing.Summary(s, 0.95).PctRangeString()
	if r == "∞" || r == "?" {
		return v
	}
	return v + " ± " + r
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
func verdict(f figure, b, n *benchmath.Sample, bc, nc float64) string {
	c := benchmath.AssumeNothing.Compare(b, n)
	if c.P > c.Alpha {
		if need := minReps(c.Alpha); c.N1 < need && c.N2 < need {
			return fmt.Sprintf("~ (n too small: %d+%d, need ≥%d repetitions each)", c.N1, c.N2, need)
		}
		return fmt.Sprintf("~ (%s)", c)
	}
	dir := "better"
	if (nc > bc) != f.higher {
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
