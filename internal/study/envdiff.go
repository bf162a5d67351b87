package study

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// What the differences grid says of an aspect, plainly.
const (
	same      = "same"
	differs   = "differs"
	notStated = "not stated"
	cannotSay = "cannot tell"
)

// environments puts each published environment a table uses beside this
// run's, from the steps its tables ran as they ran: a grid of aspect,
// published, here, and same or differs.
func environments(v *View) report.Section {
	sec := report.Section{ID: "environments", Title: "Differences from the published environments"}
	for _, e := range v.Study.Environments {
		var tables, steps []string
		for _, t := range v.Study.Tables {
			if t.Environment == e.ID {
				tables = append(tables, t.ID)
				for _, id := range t.StepIDs() {
					if !slices.Contains(steps, id) {
						steps = append(steps, id)
					}
				}
			}
		}
		runs := ranSteps(v.Doc, steps)
		if len(runs) == 0 {
			continue
		}
		g := envGrid(e, runs)
		g.Title = fmt.Sprintf("%s: %s", e.ID, tableList(tables))
		sec.Blocks = append(sec.Blocks, report.Block{Grid: &g})
	}
	return sec
}

// tableList names an environment's tables, the first few of many.
func tableList(ids []string) string {
	const few = 4
	if len(ids) == 1 {
		return "table " + ids[0]
	}
	if len(ids) <= few {
		return "tables " + strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%d tables (%s and %d more)", len(ids), strings.Join(ids[:few-1], ", "), len(ids)-few+1)
}

// ranSteps are the named steps that wrote a result, in the document's
// order.
func ranSteps(d *Document, ids []string) []*StepRun {
	var out []*StepRun
	for i := range d.Steps {
		if st := &d.Steps[i]; st.Result != nil && slices.Contains(ids, st.ID) {
			out = append(out, st)
		}
	}
	return out
}

func envGrid(e Environment, runs []*StepRun) report.Grid {
	env := runs[0].Result.Env
	g := report.Grid{Header: []string{"", "published", "here", "same or differs"}, Labels: 4}
	add := func(what, pub, here, verdict string) {
		if strings.TrimSpace(pub) == "" {
			pub, verdict = notStated, notStated
		}
		g.Rows = append(g.Rows, []string{what, oneLine(pub), here, verdict})
	}
	add("cores", e.Cores, fmt.Sprintf("%d logical CPUs (%s), GOMAXPROCS %d", env.CPUs, env.CPUModel, env.GOMAXPROCS), countVerdict(e.Cores, env.CPUs, "logical", "vCPUs", "cores", "CPUs"))
	gib := float64(env.MemBytes) / (1 << 30)
	add("memory", e.Memory, fmt.Sprintf("%.1f GiB", gib), memoryVerdict(e.Memory, gib))
	disks, dv := diskHere(e.Disk, runs)
	for i, d := range disks {
		add("disk ("+d[0]+")", e.Disk, d[1], dv[i])
	}
	servers := serversHere(runs)
	add("server", e.Server, orNone(strings.Join(servers, ", "), "none (no server)"), versionVerdict(e.Server, servers))
	client := clientHere(runs)
	add("client", e.Client, client, versionVerdict(e.Client, []string{client}))
	conc, cv := concurrencyHere(e.Concurrency, runs)
	add("concurrency", e.Concurrency, conc, cv)
	if scale, ok := scaleHere(runs); ok {
		pub, v := notStated, notStated
		if m := regexp.MustCompile(`-s\s*(\d+)`).FindStringSubmatch(e.Concurrency); m != nil {
			pub, v = "-s "+m[1], differs
			if m[1] == scale {
				v = same
			}
		}
		add("data set", pub, "-s "+scale+" (pgbench's scale, as the steps ran)", v)
	}
	if e.Notes != "" {
		g.Lines = append(g.Lines, "published: "+oneLine(e.Notes))
	}
	return g
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

func stated(pub string) bool {
	p := strings.ToLower(strings.TrimSpace(pub))
	return p != "" && !strings.HasPrefix(p, "not stated")
}

// countVerdict compares the count a published text gives before the
// first of words that has one ("40 logical") with n.
func countVerdict(pub string, n int, words ...string) string {
	if !stated(pub) {
		return notStated
	}
	for _, w := range words {
		m := regexp.MustCompile(`(\d[\d,]*)\s+(?:\w+\s+)?` + w + `\b`).FindStringSubmatch(pub)
		if m == nil {
			continue
		}
		if k, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); err == nil {
			if k == n {
				return same
			}
			return differs
		}
	}
	return cannotSay
}

// memoryVerdict compares a published "32 GB" with this machine's GiB,
// within a tenth (GB or GiB, and what the kernel keeps).
func memoryVerdict(pub string, gib float64) string {
	if !stated(pub) {
		return notStated
	}
	m := regexp.MustCompile(`(\d+(?:\.\d+)?)\s*(GB|GiB|G)\b`).FindStringSubmatch(pub)
	if m == nil {
		return cannotSay
	}
	x, _ := strconv.ParseFloat(m[1], 64)
	if x > 0 && gib/x > 0.9 && gib/x < 1.1 {
		return same
	}
	return differs
}

var (
	versionRE = regexp.MustCompile(`\d+\.\d+(?:\.\d+)*`)
	productRE = regexp.MustCompile(`(?i)\b(postgresql|postgres|clickhouse|go)\s*v?(\d+(?:\.\d+)*)`)
)

// versionVerdict says whether a published server or client names a
// version found here: a product's version ("PostgreSQL 17") is the same
// when here's starts with it ("PostgreSQL 17.2"), else a dotted version
// must appear on both sides; "no server" on both sides is the same.
func versionVerdict(pub string, here []string) string {
	lp := strings.ToLower(pub)
	if len(here) == 0 && strings.Contains(lp, "no server") {
		return same + " (no server)"
	}
	if !stated(pub) || strings.Contains(lp, "version not stated") {
		return notStated
	}
	if pm := productRE.FindAllStringSubmatch(pub, -1); len(pm) > 0 {
		found := false
		for _, h := range here {
			for _, hm := range productRE.FindAllStringSubmatch(h, -1) {
				for _, p := range pm {
					if product(p[1]) != product(hm[1]) {
						continue
					}
					found = true
					if hm[2] == p[2] || strings.HasPrefix(hm[2], p[2]+".") {
						return same
					}
				}
			}
		}
		if found {
			return differs
		}
	}
	pv := versionRE.FindAllString(pub, -1)
	if len(pv) == 0 {
		return cannotSay
	}
	for _, h := range here {
		for _, v := range versionRE.FindAllString(h, -1) {
			if slices.Contains(pv, v) {
				return same
			}
		}
	}
	return differs
}

// product names a product the same however a text spells it.
func product(name string) string {
	n := strings.ToLower(name)
	if n == "postgres" {
		return "postgresql"
	}
	return n
}

// diskHere is the disk each group of steps ran on, a row per group: the
// disk as it is, or the storage profile that limited it with its limits
// (what its probe measured at each step's start follows, per step); and
// whether that is the published kind of disk.
func diskHere(pub string, runs []*StepRun) (rows [][2]string, verdicts []string) {
	groups := map[string][]*StepRun{}
	var order []string
	for _, st := range runs {
		line := diskLine(st.Result.Env.Disk)
		if _, ok := groups[line]; !ok {
			order = append(order, line)
		}
		groups[line] = append(groups[line], st)
	}
	hdd := regexp.MustCompile(`(?i)hard disk|\brpm\b|\bhdd\b|\bSAS\b`).MatchString(pub)
	for _, line := range order {
		var ids, measured []string
		for _, st := range groups[line] {
			ids = append(ids, st.ID)
			if m := diskMeasured(st.Result.Env.Disk); m != "" {
				measured = append(measured, st.ID+": "+m)
			}
		}
		here := line
		if len(measured) > 0 {
			here += ". Measured at each step's start, " + strings.Join(measured, "; ")
		}
		rows = append(rows, [2]string{strings.Join(ids, ", "), here})
		verdicts = append(verdicts, diskVerdict(pub, hdd, groups[line][0].Result.Env.Disk))
	}
	return rows, verdicts
}

// diskMeasured is what a step's probe measured of its disk: under a
// storage profile the IOs/s it delivered, else one synced write's time.
func diskMeasured(d result.Disk) string {
	if st := d.Storage; st != nil {
		if p := st.Probe; p != nil && p.Error == "" {
			return fmt.Sprintf("%.0f read and %.0f write IOs/s", p.ReadIOPS, p.WriteIOPS)
		}
		return ""
	}
	if p := d.Fsync; p != nil && p.Error == "" {
		return fmt.Sprintf("fsync p50 %s", time.Duration(p.P50Ns).Round(time.Microsecond))
	}
	return ""
}

// diskLine says what a step's disk was: the device as it is, with its
// measured fsync, or the storage profile that limited it.
func diskLine(d result.Disk) string {
	if st := d.Storage; st != nil {
		return fmt.Sprintf("the %s storage profile: %s (%s on %s)", st.Profile, st.Limits, st.Hierarchy, orNone(st.Device, d.Device))
	}
	s := "this disk as it is: " + strings.Join(strings.Fields(fmt.Sprintf("%s %s %s", d.Device, d.Model, d.FS)), " ")
	if d.Rotational {
		s += ", rotational by the kernel's flag"
	}
	return s
}

// diskVerdict: a published hard disk emulated by the hdd profile, or a
// disk of the same kind (rotating or not, by its fsync).
func diskVerdict(pub string, hdd bool, d result.Disk) string {
	if !stated(pub) {
		return notStated
	}
	if d.Storage != nil {
		if hdd && d.Storage.Profile == "hdd" {
			return "emulated"
		}
		return differs
	}
	// The kernel's rotational flag is a guess, often wrong for virtual
	// disks; a synced write's time is what a disk does. A 10,500 rpm disk
	// takes several ms for one; a disk with a cache in front, much less.
	slow := d.Rotational
	if p := d.Fsync; p != nil && p.Error == "" {
		slow = p.P50Ns > int64(2*time.Millisecond)
	}
	if slow == hdd {
		return "same kind"
	}
	return differs
}

func serversHere(runs []*StepRun) []string {
	var out []string
	for _, st := range runs {
		for _, r := range st.Result.Runs {
			s := r.Server
			if st.Standin && s != "" {
				s = "the protocol stand-in (not a server; announces " + s + ")"
			}
			if s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// clientHere is the Go toolchain, the external clients' stacks and the
// steps whose runs compressed their blocks, by method.
func clientHere(runs []*StepRun) string {
	out := []string{runs[0].Result.Env.Go}
	compress := map[string][]string{}
	for _, st := range runs {
		for _, x := range st.Result.Env.ExternalClients {
			if s := fmt.Sprintf("%s %s %s", x.Language, x.Runtime, x.Library); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		for _, r := range st.Result.Runs {
			if m := r.Params["compress"]; m != "" && !slices.Contains(compress[m], st.ID) {
				compress[m] = append(compress[m], st.ID)
			}
		}
	}
	for _, m := range slices.Sorted(maps.Keys(compress)) {
		out = append(out, fmt.Sprintf("%s compression in %d steps", m, len(compress[m])))
	}
	return strings.Join(out, "; ")
}

// scaleHere is the pgbench scale the runs had, when they all had one.
func scaleHere(runs []*StepRun) (string, bool) {
	scale := ""
	for _, st := range runs {
		for _, r := range st.Result.Runs {
			s := r.Params["scale"]
			if s == "" || (scale != "" && s != scale) {
				return "", false
			}
			scale = s
		}
	}
	return scale, scale != ""
}

var concurrencyRE = regexp.MustCompile(`(\d+)\s+(?:goroutines|clients|connections|threads|workers)|-c\s*(\d+)`)

// concurrencyHere lists the workers the runs had, steps grouped by it
// ("2 workers, 1 in setmixed: nofsync, fsync"), and compares the most
// common count with the published one.
func concurrencyHere(pub string, runs []*StepRun) (string, string) {
	var order []string
	steps := map[string][]string{}
	counts := map[int]int{}
	for _, st := range runs {
		d := stepWorkers(st.Result.Runs)
		if _, ok := steps[d]; !ok {
			order = append(order, d)
		}
		steps[d] = append(steps[d], st.ID)
		for _, r := range st.Result.Runs {
			counts[r.Workers]++
		}
	}
	var parts []string
	for _, d := range order {
		parts = append(parts, d+": "+strings.Join(steps[d], ", "))
	}
	here := strings.Join(parts, "; ")
	m := concurrencyRE.FindStringSubmatch(pub)
	if m == nil {
		if !stated(pub) {
			return here, notStated
		}
		return here, cannotSay
	}
	k, _ := strconv.Atoi(m[1] + m[2])
	if mostCommon(counts) == k {
		return here, same
	}
	return here, fmt.Sprintf("%s (%d here, %d published)", differs, mostCommon(counts), k)
}

// stepWorkers says how many workers a step's runs had: the most common
// count, and the workloads that had another ("2 workers, 1 in setmixed").
func stepWorkers(runs []result.Run) string {
	counts := map[int]int{}
	for _, r := range runs {
		counts[r.Workers]++
	}
	n := mostCommon(counts)
	s := workers(n)
	other := map[int][]string{}
	for _, r := range runs {
		if r.Workers != n && !slices.Contains(other[r.Workers], r.Workload) {
			other[r.Workers] = append(other[r.Workers], r.Workload)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(other)) {
		s += fmt.Sprintf(", %d in %s", k, strings.Join(other[k], ", "))
	}
	return s
}

func workers(n int) string {
	if n == 1 {
		return "1 worker"
	}
	return fmt.Sprintf("%d workers", n)
}

// mostCommon is the count seen most often, the larger on a tie.
func mostCommon(counts map[int]int) int {
	best := 0
	for k, n := range counts {
		if n > counts[best] || (n == counts[best] && k > best) {
			best = k
		}
	}
	return best
}
