package board

import (
	"github.com/dbmeter/dbmeter/internal/result"
)

// Probes of the machine reference a figure can depend on
// (docs/machine.md): the CPU loop, the fsync cost of the disk probe and
// the loopback round trip.
const (
	ProbeCPU      = "cpu"
	ProbeFsync    = "fsync"
	ProbeLoopback = "loopback"
)

// probeNames name each probe on the page.
var probeNames = map[string]string{
	ProbeCPU:      "CPU loop",
	ProbeFsync:    "fsync cost",
	ProbeLoopback: "loopback RTT",
}

// boundNames name the kind of figure each probe bounds.
var boundNames = map[string]string{
	ProbeCPU:      "CPU-bound",
	ProbeFsync:    "sync-bound",
	ProbeLoopback: "round-trip-bound",
}

// Dependence declares which probe of the machine reference a figure
// scales with, for the runs of a family whose setting has a value (an
// empty Figure, Setting: any). The board divides a cell by it; it never
// guesses from the figures.
//
// This is the one declaration. It lives here, in a table the board owns,
// because the shared figures layer of report and study (which should
// carry it beside each figure's unit) had not landed when the board was
// written; it moves there with it.
type Dependence struct {
	Family, Figure, Setting, Value string
	Probe                          string
	Why                            string
}

var dependences = []Dependence{
	{Family: "kv", Setting: "fsync", Value: "false", Probe: ProbeCPU,
		Why: "an engine that does not sync computes in dbmeter's own process: its figures scale with the CPU. Not with the core count: on this project's VM 40 workers on one core ran the nofsync cells as fast as on two (the engines' locks, not the cores, bound them)"},
	{Family: "kv", Setting: "fsync", Value: "true", Probe: ProbeFsync,
		Why: "every write waits for a durable write: its figures scale with what one fsync costs"},
	{Family: "null", Probe: ProbeCPU, Why: "the null target does no I/O: dbmeter's own CPU bounds it"},
	{Family: "pg", Probe: ProbeLoopback, Why: "every transaction is round trips to the server"},
	{Family: "ch", Probe: ProbeLoopback, Why: "every query or batch is a round trip to the server"},
}

// Dependences are the declarations, for the page to list.
func Dependences() []Dependence { return dependences }

// dependence is the declaration that applies to a run's figure; false
// when none does (the cell is then not normalised, and the page says so).
// A sync-bound figure of a run under a storage profile is not normalised:
// the profile's limits set what a sync costs there, and the disk probe,
// taken before the profile holds, does not see them.
func dependence(d0 *result.Document, r *result.Run, figure string) (Dependence, bool) {
	for _, d := range dependences {
		if d.Probe == ProbeFsync && d0.Env.Disk.Storage != nil {
			continue
		}
		if d.Family != r.Family || (d.Figure != "" && d.Figure != figure) {
			continue
		}
		if d.Setting != "" && r.Params[d.Setting] != d.Value {
			continue
		}
		return d, true
	}
	return Dependence{}, false
}

// probeOf reads a probe from one step's result document: the CPU loop and
// loopback RTT pooled over the reference's points, the fsync cost as the
// disk probe's p50. False when the document lacks it.
func probeOf(d *result.Document, probe string) (float64, bool) {
	if probe == ProbeFsync {
		f := d.Env.Disk.Fsync
		if f == nil || f.Error != "" || f.P50Ns <= 0 {
			return 0, false
		}
		return float64(f.P50Ns), true
	}
	if d.Machine == nil {
		return 0, false
	}
	m, _, ok := d.Machine.Reference.Pooled(probe)
	return m, ok
}
