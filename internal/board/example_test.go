package board

import (
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/report"
)

// exampleDir holds the committed example: scripts/board-example.sh's
// constrained runs of s5 and their board.
const exampleDir = "../../docs/board"

// exampleBoard is the board of the committed example documents; nil when
// there are none.
func exampleBoard(t *testing.T) *Board {
	t.Helper()
	files, err := Files([]string{exampleDir})
	if err != nil || len(files) == 0 {
		return nil
	}
	b, err := Build(files, Options{Baseline: "plain", Note: exampleNote})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exampleNote is what scripts/board-example.sh says at the top of the
// page.
const exampleNote = "These machines are constrained runs of one machine"

// cpuLoop is a machine's CPU loop in its first CPU-bound step: what the
// normalised view divides CPU-bound cells by.
func cpuLoop(m *Machine) float64 {
	for _, st := range m.doc.Steps {
		if r := st.Result; r != nil && len(r.Runs) > 0 && r.Runs[0].Params["fsync"] == "false" {
			if p, ok := report.ProbeOf(r, ProbeCPU); ok {
				return p
			}
		}
	}
	return math.NaN()
}

// syncBound is m's median speed beside the baseline in the sync-bound
// throughput cells run without a storage profile.
func syncBound(b *Board, m *Machine) float64 {
	for _, k := range b.Kinds {
		if k.Name == boundNames[ProbeFsync]+" · throughput (ops/s)" {
			for i, x := range b.Machines {
				if x == m {
					return k.Rows[i].Raw
				}
			}
		}
	}
	return math.NaN()
}

// fsyncApart tells a throttled disk from plain's by the fsync probe: in
// every step run without a storage profile (a step under one runs in the
// profile's cgroup, not the machine's) its cost at least twice the median
// of plain's, and its sync-bound cells slower than plain's.
func fsyncApart(b *Board, m, plain *Machine) (bool, string) {
	costs := unprofiledFsync(m)
	if len(costs) == 0 {
		return false, "no fsync probe in a step without a storage profile"
	}
	base := median(unprofiledFsync(plain))
	lo, hi := slices.Min(costs), slices.Max(costs)
	raw := syncBound(b, m)
	return lo >= 2*base && raw < 0.9, fmt.Sprintf("fsync cost %s–%s plain's median over the steps without a storage profile; sync-bound throughput %s plain's", ratio(lo/base), ratio(hi/base), ratio(raw))
}

// unprofiledFsync is m's fsync probe in each step run without a storage
// profile.
func unprofiledFsync(m *Machine) []float64 {
	var out []float64
	for _, st := range m.doc.Steps {
		if r := st.Result; r != nil && r.Env.Disk.Storage == nil {
			if p, ok := report.ProbeOf(r, ProbeFsync); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// hogSteps counts m's steps whose busiest other process was the busy
// loop, sh, at half a core or more.
func hogSteps(m *Machine) int {
	n := 0
	for _, st := range m.doc.Steps {
		if r := st.Result; r != nil && r.Machine != nil && len(r.Machine.TopOthers) > 0 {
			if top := r.Machine.TopOthers[0]; top.Name == "sh" && top.Cores >= 0.5 {
				n++
			}
		}
	}
	return n
}

// othersCores is the most CPU other processes used in any of m's steps.
func othersCores(m *Machine) float64 {
	x := 0.0
	for _, st := range m.doc.Steps {
		if r := st.Result; r != nil && r.Machine != nil {
			x = math.Max(x, r.Machine.OthersCores)
		}
	}
	return x
}

// The committed example: at least five constrained machines of s5 quick,
// each told apart from the plain one by what constrains it, and a page
// that says, for the CPU-limited machines' CPU-bound cells and the
// throttled disks' sync-bound ones, whether the reference explains them
// once normalised or by how much it does not.
// The page committed beside the documents must be this code's rendering
// of them.
func TestExampleBoard(t *testing.T) {
	b := exampleBoard(t)
	if b == nil {
		t.Skip("no example documents in docs/board: scripts/board-example.sh makes them")
	}
	if len(b.Machines) < 5 || len(b.Refused)+len(b.Apart) > 0 {
		t.Fatalf("%d machines (want 5 or more: scripts/board-example.sh makes six), refused %v, apart %v", len(b.Machines), b.Refused, b.Apart)
	}
	by := map[string]*Machine{}
	for _, m := range b.Machines {
		by[m.Name] = m
	}
	plain := by["plain"]
	if plain == nil || b.Machines[b.Baseline] != plain {
		t.Fatal("no plain machine as the baseline")
	}
	tellApart := map[string]func(m *Machine) (bool, string){
		// The reference's probes run on one goroutine: a cpuset of one
		// CPU that is never throttled leaves them as fast as on two. Go
		// records the cpuset as GOMAXPROCS.
		"cpu-1core": func(m *Machine) (bool, string) {
			return m.Env.GOMAXPROCS == 1 && plain.Env.GOMAXPROCS > 1, fmt.Sprintf("GOMAXPROCS %d, plain's %d (its CPU loop %s plain's)", m.Env.GOMAXPROCS, plain.Env.GOMAXPROCS, ratio(cpuLoop(m)/cpuLoop(plain)))
		},
		"cpu-0.5core": func(m *Machine) (bool, string) {
			r := cpuLoop(m) / math.Max(cpuLoop(plain), cpuLoop(by["cpu-1core"]))
			return r > 1.3, "CPU loop " + ratio(r) + " the slower of plain's and cpu-1core's"
		},
		// A hog on one core of two leaves the single-threaded probes a
		// free core, and this machine's other jobs kept plain as busy:
		// the machine state tells it apart by naming the busy loop.
		"hog": func(m *Machine) (bool, string) {
			n := hogSteps(m)
			return n*2 > m.Steps, fmt.Sprintf("the busy loop (sh) the busiest other process, at half a core or more, in %d of %d steps (others used up to %.2f cores; on plain %.2f)", n, m.Steps, othersCores(m), othersCores(plain))
		},
		// A blkio throttle lets a burst of IOs through at the start of
		// each of its 100 ms slices, then holds the next one to the
		// slice's end: the disk probe's p50 is the burst's, its time per
		// durable write (the figure the board reads) the limit's.
		"hdd": func(m *Machine) (bool, string) {
			return fsyncApart(b, m, plain)
		},
		"provisioned": func(m *Machine) (bool, string) {
			return fsyncApart(b, m, plain)
		},
	}
	for name, apart := range tellApart {
		m := by[name]
		if m == nil {
			t.Logf("no machine %s in the example", name)
			continue
		}
		ok, why := apart(m)
		t.Logf("%s: %s", name, why)
		if !ok {
			t.Errorf("%s: the reference does not tell it from the others: %s", name, why)
		}
	}
	page, err := os.ReadFile(filepath.Join(exampleDir, "board.html"))
	if err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(string(page))
	if !strings.Contains(text, exampleNote) {
		t.Error("the committed page does not say that its machines are constrained runs of one machine")
	}
	for _, k := range b.Kinds {
		if k.Dep == nil || !strings.Contains(k.Name, "throughput") {
			continue
		}
		for i, m := range b.Machines {
			cpu, disk := strings.HasPrefix(m.Name, "cpu-"), m.Name == "hdd" || m.Name == "provisioned"
			if !(cpu && k.Dep.Probe == ProbeCPU) && !(disk && k.Dep.Probe == ProbeFsync) {
				continue
			}
			s := k.Explanation(b, i)
			t.Logf("%s", s)
			r := k.Rows[i]
			if r.Within < r.Compare && !strings.Contains(s, "% off the baseline") {
				t.Errorf("%s: %d of %d cells within the baseline's interval once normalised, and the page does not say by how much the rest are off: %s", m.Name, r.Within, r.Compare, s)
			}
			if !strings.Contains(text, s) {
				t.Errorf("the committed page is not this code's rendering of the documents: it lacks %q (run scripts/board-example.sh's last command again)", s)
			}
		}
	}
}
