package board

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/study"
)

// Board is many machines' runs of one study, cell by cell.
type Board struct {
	Study    *study.Study
	Quick    bool
	Version  string
	Machines []*Machine
	// Baseline is the index of the machine the others are put beside in
	// the normalised view.
	Baseline int
	Cells    []*Cell
	Kinds    []*Kind
	Claims   []ClaimCount
	// Apart and Refused say, one line each, which documents were not
	// counted and why; Notes what else a reader must know (failed steps).
	Apart, Refused, Notes []string
	// Stale says how the board's study file differs from this dbmeter's
	// built-in study of the same id; "" when they are the same.
	Stale string
	// Constrained is a note the caller adds (the example's machines are
	// constrained runs of one machine).
	Constrained string
}

// Machine is one document's machine.
type Machine struct {
	Name, File string
	Env        result.Env
	StartedAt  time.Time
	WallS      float64
	// Storage lists the storage profiles the steps ran under.
	Storage []string
	Servers []string
	// Ref holds the machine reference, pooled over the steps: the median
	// of each step's figure, in ns (Spread the largest spread); the fsync
	// cost's over the steps run without a storage profile.
	Ref, Spread map[string]float64
	// Busy holds the machine state of each step made on a busy machine.
	Busy    []result.Machine
	Steps   int
	Failed  []string
	Removed []Removal
	// Cores, StorageClass and ServerVersion are the filter values.
	Cores, StorageClass, ServerVersion string
	doc                                *study.Document
	view                               *study.View
}

// Options choose the board's baseline and its note.
type Options struct {
	// Baseline names the machine the others are put beside; "" picks the
	// one whose CPU loop was fastest.
	Baseline string
	Note     string
}

// Build reads the documents and makes the board. Documents that cannot
// be compared are not counted, each with its line.
func Build(files []string, o Options) (*Board, error) {
	var es []*entry
	b := &Board{Constrained: o.Note}
	for _, f := range files {
		e, why := read(f)
		if why != "" {
			b.Refused = append(b.Refused, why)
			continue
		}
		es = append(es, e)
	}
	main, apart := group(es)
	b.Apart = apart
	switch {
	case len(files) == 0:
		return b, fmt.Errorf("no study result document given (a directory's *.json and *.json.gz are read)")
	case len(main) == 0:
		return b, fmt.Errorf("no document to put on a board: every one of the %d was refused: %s", len(files), strings.Join(b.Refused, "; "))
	}
	b.Study, b.Quick, b.Version = main[0].study, main[0].doc.Quick, main[0].version
	if cur, err := study.Load(b.Study.ID); err == nil && cur.Hash != b.Study.Hash && strings.HasPrefix(b.Study.File, "builtin/") {
		b.Stale = fmt.Sprintf("the documents ran study %s as it was (sha256 %s); this dbmeter's built-in %s differs: %s", b.Study.ID, short(b.Study.Hash), b.Study.ID, Changes(b.Study, cur))
	}
	names := map[string]int{}
	for _, e := range main {
		m := newMachine(e)
		if names[m.Name]++; names[m.Name] > 1 {
			m.Name = fmt.Sprintf("%s #%d", m.Name, names[m.Name])
		}
		for _, f := range m.Failed {
			b.Notes = append(b.Notes, m.Name+": "+f)
		}
		b.Machines = append(b.Machines, m)
	}
	b.Baseline = baseline(b.Machines, o.Baseline)
	if o.Baseline != "" && b.Machines[b.Baseline].Name != o.Baseline {
		return nil, fmt.Errorf("no machine named %q on the board: they are %s", o.Baseline, strings.Join(machineNames(b.Machines), ", "))
	}
	// The baseline first, every other machine beside it in the order they
	// ran.
	sort.SliceStable(b.Machines, func(i, j int) bool { return b.Machines[i].StartedAt.Before(b.Machines[j].StartedAt) })
	b.Baseline = baseline(b.Machines, o.Baseline)
	base := b.Machines[b.Baseline]
	b.Machines = append([]*Machine{base}, slices.Delete(b.Machines, b.Baseline, b.Baseline+1)...)
	b.Baseline = 0
	b.Cells = cells(b)
	b.Kinds = kinds(b)
	b.Claims = claims(b)
	return b, nil
}

func machineNames(ms []*Machine) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

// newMachine reads a machine from its document. A step that failed has
// its result left out (never a figure), and says so.
func newMachine(e *entry) *Machine {
	doc := *e.doc
	doc.Steps = slices.Clone(e.doc.Steps)
	m := &Machine{Name: e.name(), File: e.file, StartedAt: doc.StartedAt, WallS: doc.WallS, Steps: len(doc.Steps), doc: &doc, Ref: map[string]float64{}, Spread: map[string]float64{}}
	if e.published != nil {
		m.Removed = e.published.Removed
	}
	refs := map[string][]float64{}
	for i := range doc.Steps {
		st := &doc.Steps[i]
		if st.Error != "" {
			m.Failed = append(m.Failed, fmt.Sprintf("step %s failed (%s): its cells are missing, never counted", st.ID, firstLine(st.Error)))
			st.Result = nil
		}
		r := st.Result
		if r == nil {
			continue
		}
		if m.Env.CPUModel == "" {
			m.Env = r.Env
		}
		if s := r.Env.Disk.Storage; s != nil && !slices.Contains(m.Storage, s.Profile) {
			m.Storage = append(m.Storage, s.Profile)
		}
		for _, run := range r.Runs {
			if run.Server != "" && !slices.Contains(m.Servers, run.Server) {
				m.Servers = append(m.Servers, run.Server)
			}
		}
		if r.Machine != nil && r.Machine.Busy {
			m.Busy = append(m.Busy, *r.Machine)
		}
		for _, p := range []string{ProbeCPU, "memcopy", ProbeLoopback, "timer", ProbeFsync} {
			// A step under a storage profile probes the profile's
			// cgroup, not the machine's disk.
			if v, ok := report.ProbeOf(r, p); ok && (p != ProbeFsync || r.Env.Disk.Storage == nil) {
				refs[p] = append(refs[p], v)
			}
			if r.Machine != nil && p != ProbeFsync {
				if _, sp, ok := r.Machine.Reference.Pooled(p); ok {
					m.Spread[p] = max(m.Spread[p], sp)
				}
			}
		}
	}
	for p, vs := range refs {
		m.Ref[p] = median(vs)
	}
	m.view = study.Evaluate(e.study, &doc)
	m.Cores = fmt.Sprintf("%d", m.Env.CPUs)
	m.StorageClass = storageClass(m)
	m.ServerVersion = "embedded (no server)"
	if len(m.Servers) > 0 {
		m.ServerVersion = strings.Join(m.Servers, ", ")
	}
	return m
}

// storageClass is the filter's storage value: what the fsync probe
// measured, in the classes docs/machine.md gives.
func storageClass(m *Machine) string {
	f, ok := m.Ref[ProbeFsync]
	switch {
	case !ok:
		return "fsync not probed"
	case f < 20e3:
		return "fsync < 20 µs (nothing reaches stable storage)"
	case f < 2e6:
		return "fsync < 2 ms (SSD-class)"
	}
	return "fsync ≥ 2 ms (disk-class)"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// baseline is the named machine, else the one whose CPU loop was fastest.
func baseline(ms []*Machine, name string) int {
	best := 0
	for i, m := range ms {
		if name != "" && m.Name == name {
			return i
		}
		if c, ok := m.Ref[ProbeCPU]; ok && (ms[best].Ref[ProbeCPU] == 0 || c < ms[best].Ref[ProbeCPU]) {
			best = i
		}
	}
	return best
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// BusyLine sums up the steps made on a busy machine in one line: how many,
// the range of the CPU others used, and the busiest other process.
func (m *Machine) BusyLine() string {
	if len(m.Busy) == 0 {
		return "quiet"
	}
	lo, hi := math.Inf(1), 0.0
	var top result.ProcessCPU
	for _, b := range m.Busy {
		lo, hi = math.Min(lo, b.OthersCores), math.Max(hi, b.OthersCores)
		for _, p := range b.TopOthers {
			if p.Cores > top.Cores {
				top = p
			}
		}
	}
	s := fmt.Sprintf("busy in %d of %d steps: other processes used %.2f–%.2f cores", len(m.Busy), m.Steps, lo, hi)
	if top.Name != "" {
		s += fmt.Sprintf(" (the most: %s, %.2f)", top.Name, top.Cores)
	}
	return s
}
