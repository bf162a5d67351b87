package study

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// grid is a table to print: a header and rows of cells.
type grid struct {
	head []string
	rows [][]string
}

func (g grid) text(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(g.head, "\t")+"\t")
	for _, r := range g.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
}

func (g grid) markdown(w io.Writer) {
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	row := func(cells []string) {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = esc(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(out, " | "))
	}
	row(g.head)
	sep := make([]string, len(g.head))
	for i := range sep {
		sep[i] = "---"
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(sep, "|"))
	for _, r := range g.rows {
		row(r)
	}
}

// tableGrid lays a table out with three lines per published row:
// published, measured here, and measured over published.
func tableGrid(tv TableView) grid {
	t := tv.Table
	g := grid{head: append([]string{t.Rows, ""}, t.Header...)}
	for i, row := range t.rows {
		pub, here, ratio := []string{row.Label, "published"}, []string{"", "here"}, []string{"", "here/published"}
		for _, c := range tv.Cells[i] {
			pub = append(pub, pubText(c))
			here = append(here, hereText(c))
			if q, ok := c.Ratio(); ok {
				ratio = append(ratio, fmt.Sprintf("%.2f×", q))
			} else {
				ratio = append(ratio, "-")
			}
		}
		g.rows = append(g.rows, pub, here, ratio)
	}
	return g
}

func pubText(c Cell) string {
	if c.Published == nil {
		return "-"
	}
	return num(*c.Published)
}

func hereText(c Cell) string {
	switch {
	case c.Measured == nil:
		return "-"
	case c.Measured.Standin:
		return num(c.Measured.Value) + " (stand-in)"
	}
	return num(c.Measured.Value)
}

// WriteText prints a study's tables, claims and environment differences
// for the terminal.
func WriteText(w io.Writer, v *View) {
	s, d := v.Study, v.Doc
	form := "full"
	if d.Quick {
		form = "quick"
	}
	fmt.Fprintf(w, "study %s (%s form): %s\nsource: %s\nfile: %s  sha256 %s\nwall time: %s\n", s.ID, form, s.Title, s.Source, d.File, d.SHA256[:16], time.Duration(d.WallS*float64(time.Second)).Round(time.Second))
	if s.Scaling != "" {
		fmt.Fprintf(w, "scaling: %s\n", oneLine(s.Scaling))
	}
	for _, tv := range v.Tables {
		t := tv.Table
		fmt.Fprintf(w, "\n%s: %s (%s, %s)\n", t.ID, t.Title, t.Figure, t.Unit)
		if t.Measured != "" {
			fmt.Fprintf(w, "  published: %s\n", oneLine(t.Measured))
		}
		if tv.Note != "" {
			fmt.Fprintf(w, "  note: %s\n", tv.Note)
		}
		if t.NotComparable != "" {
			fmt.Fprintf(w, "  not compared: %s\n", oneLine(t.NotComparable))
		}
		for _, row := range slices.Sorted(mapKeys(t.Cannot)) {
			fmt.Fprintf(w, "  %s cannot run here: %s\n", row, t.Cannot[row])
		}
		tableGrid(tv).text(w)
	}
	fmt.Fprintf(w, "\nclaims: %s\n", verdictCounts(v.Claims))
	for _, c := range v.Claims {
		fmt.Fprintf(w, "  [%s] %s: %s\n", c.Verdict, c.Claim.ID, oneLine(c.Claim.Text))
		fmt.Fprintf(w, "      here: %s; on the published figures: %s\n", c.Reason, c.Published)
		if c.Claim.Note != "" {
			fmt.Fprintf(w, "      note: %s\n", oneLine(c.Claim.Note))
		}
	}
	if diffs := EnvDiffs(v); len(diffs) > 0 {
		fmt.Fprintf(w, "\ndifferences between the published environment and this one that bear on the ratios:\n")
		for _, l := range diffs {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if lines := MachineLines(d); len(lines) > 0 {
		fmt.Fprintf(w, "\nthe machine during the steps:\n")
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

// MachineLines says, per step, whether the machine was busy and whether
// its reference drifted past its own spread during the step.
func MachineLines(d *Document) []string {
	var out []string
	for _, st := range d.Steps {
		if st.Result == nil || st.Result.Machine == nil {
			continue
		}
		m := st.Result.Machine
		if l := m.BusyLine(); l != "" {
			out = append(out, "step "+st.ID+": "+l)
		}
		if m.Reference != nil {
			if l := m.Reference.DriftLine(); l != "" {
				out = append(out, "step "+st.ID+": "+l)
			}
		}
	}
	return out
}

// WriteMarkdown renders the same as WriteText, as Markdown.
func WriteMarkdown(w io.Writer, v *View) {
	s, d := v.Study, v.Doc
	fmt.Fprintf(w, "# Study %s: %s\n\n", s.ID, s.Title)
	fmt.Fprintf(w, "- source: %s\n- file: `%s`, sha256 `%s`\n- form: quick=%v, wall time %.0f s, started %s\n", s.Source, d.File, d.SHA256, d.Quick, d.WallS, d.StartedAt.Format(time.RFC3339))
	if s.Scaling != "" {
		fmt.Fprintf(w, "- scaling: %s\n", oneLine(s.Scaling))
	}
	fmt.Fprintf(w, "\n## Steps\n\n")
	for _, st := range d.Steps {
		state := fmt.Sprintf("%.0f s", st.WallS)
		switch {
		case st.Skipped != "":
			state = "skipped: " + st.Skipped
		case st.Error != "":
			state = "failed: " + st.Error
		case st.Standin:
			state += ", against the protocol stand-in (not a server)"
		}
		fmt.Fprintf(w, "- `%s`: `%s` (%s)\n", st.ID, st.Command, state)
	}
	for _, tv := range v.Tables {
		t := tv.Table
		fmt.Fprintf(w, "\n## %s (%s, %s)\n\n", t.Title, t.Figure, t.Unit)
		if t.Measured != "" {
			fmt.Fprintf(w, "Published: %s\n\n", oneLine(t.Measured))
		}
		if tv.Note != "" {
			fmt.Fprintf(w, "Note: %s\n\n", tv.Note)
		}
		if t.NotComparable != "" {
			fmt.Fprintf(w, "Not compared: %s\n\n", oneLine(t.NotComparable))
		}
		for _, row := range slices.Sorted(mapKeys(t.Cannot)) {
			fmt.Fprintf(w, "- %s cannot run here: %s\n", row, t.Cannot[row])
		}
		tableGrid(tv).markdown(w)
	}
	fmt.Fprintf(w, "\n## Claims\n\n")
	g := grid{head: []string{"claim", "verdict here", "why", "on the published figures"}}
	for _, c := range v.Claims {
		g.rows = append(g.rows, []string{oneLine(c.Claim.Text), c.Verdict, c.Reason, c.Published})
	}
	g.markdown(w)
	if diffs := EnvDiffs(v); len(diffs) > 0 {
		fmt.Fprintf(w, "\n## Environment differences that bear on the ratios\n\n")
		for _, l := range diffs {
			fmt.Fprintf(w, "- %s\n", l)
		}
	}
	if lines := MachineLines(d); len(lines) > 0 {
		fmt.Fprintf(w, "\n## The machine during the steps\n\n")
		for _, l := range lines {
			fmt.Fprintf(w, "- %s\n", l)
		}
	}
}

// verdictCounts sums the claims up: "holds 2, does not hold 1, cannot be
// checked here 3".
func verdictCounts(cs []ClaimView) string {
	n := map[string]int{}
	for _, c := range cs {
		n[c.Verdict]++
	}
	var parts []string
	for _, v := range VerdictOrder {
		if n[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, n[v]))
		}
	}
	return strings.Join(parts, ", ")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// EnvDiffs lists, for each published environment a table uses, what it
// says beside what this run's result documents recorded.
func EnvDiffs(v *View) []string {
	here := hereEnv(v.Doc)
	if here == nil {
		return nil
	}
	used := map[string]bool{}
	for _, t := range v.Study.Tables {
		used[t.Environment] = true
	}
	var out []string
	for _, e := range v.Study.Environments {
		if !used[e.ID] {
			continue
		}
		disk := fmt.Sprintf("%s %s %s (rotational %v)", here.Env.Disk.Device, here.Env.Disk.Model, here.Env.Disk.FS, here.Env.Disk.Rotational)
		if p := here.Env.Disk.Fsync; p != nil && p.Error == "" {
			disk += fmt.Sprintf(", fsync p50 %s (%.0f/s)", time.Duration(p.P50Ns), p.OpsPerS)
		}
		for _, d := range []struct{ what, pub, here string }{
			{"cores", e.Cores, fmt.Sprintf("%d CPUs, %s (GOMAXPROCS %d)", here.Env.CPUs, here.Env.CPUModel, here.Env.GOMAXPROCS)},
			{"memory", e.Memory, fmt.Sprintf("%.1f GiB", float64(here.Env.MemBytes)/(1<<30))},
			{"disk", e.Disk, disk},
			{"server", e.Server, strings.Join(here.servers, ", ")},
			{"client", e.Client, here.client()},
			{"concurrency", e.Concurrency, here.concurrency()},
		} {
			if d.pub == "" {
				d.pub = "not stated"
			}
			if d.here == "" {
				d.here = "none (no server)"
			}
			out = append(out, fmt.Sprintf("%s %s: published %s; here %s", e.ID, d.what, oneLine(d.pub), d.here))
		}
	}
	return out
}

type envHere struct {
	Env     result.Env
	servers []string
	workers []stepWorkers
	// compress are the steps whose runs compressed their blocks (the
	// DSN's compress), by method.
	compress map[string][]string
}

type stepWorkers struct {
	step    string
	workers int
}

// concurrency says how many workers the runs had: one figure when every
// step had the same, else each step's.
func (h *envHere) concurrency() string {
	var all []string
	same := true
	for _, w := range h.workers {
		same = same && w.workers == h.workers[0].workers
		if s := fmt.Sprintf("%s: %d", w.step, w.workers); !slices.Contains(all, s) {
			all = append(all, s)
		}
	}
	if len(h.workers) > 0 && same {
		return fmt.Sprintf("%d workers in every run (open-loop runs start more on demand)", h.workers[0].workers)
	}
	return "workers per step: " + strings.Join(all, ", ")
}

// client is the Go toolchain and the external clients' stacks.
func (h *envHere) client() string {
	out := []string{h.Env.Go}
	for _, x := range h.Env.ExternalClients {
		out = append(out, fmt.Sprintf("%s %s %s", x.Language, x.Runtime, x.Library))
	}
	methods := slices.Sorted(maps.Keys(h.compress))
	for _, m := range methods {
		out = append(out, fmt.Sprintf("%s compression in %d steps", m, len(h.compress[m])))
	}
	return strings.Join(out, "; ")
}

func hereEnv(d *Document) *envHere {
	var h *envHere
	for _, st := range d.Steps {
		if st.Result == nil {
			continue
		}
		if h == nil {
			h = &envHere{Env: st.Result.Env}
		}
		for _, x := range st.Result.Env.ExternalClients {
			if !slices.Contains(h.Env.ExternalClients, x) {
				h.Env.ExternalClients = append(h.Env.ExternalClients, x)
			}
		}
		for _, r := range st.Result.Runs {
			s := r.Server
			if st.Standin && s != "" {
				s = "the protocol stand-in (not a server; announces " + s + ")"
			}
			if s != "" && !slices.Contains(h.servers, s) {
				h.servers = append(h.servers, s)
			}
			h.workers = append(h.workers, stepWorkers{st.ID, r.Workers})
			if m := r.Params["compress"]; m != "" && !slices.Contains(h.compress[m], st.ID) {
				if h.compress == nil {
					h.compress = map[string][]string{}
				}
				h.compress[m] = append(h.compress[m], st.ID)
			}
		}
	}
	return h
}
