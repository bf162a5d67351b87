package board

import (
	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// Probes of the machine reference a figure can depend on, as the
// figures layer declares them (report.Dependence).
const (
	ProbeCPU      = report.ProbeCPU
	ProbeFsync    = report.ProbeFsync
	ProbeLoopback = report.ProbeLoopback
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

// dependence is the declaration of the figures layer that applies to a
// run's figure (report.DependenceOf); false when none does (the cell is
// then not normalised, and the page says so). A sync-bound figure of a
// run under a storage profile is not normalised: the profile's limits set
// what a sync costs there, alike on every machine, and the disk probe,
// run inside the profile's cgroup, measures them (docs/board: 65–70
// fsyncs/s under the hdd profile on every machine), not the machine.
func dependence(d0 *result.Document, r *result.Run, figure string) (report.Dependence, bool) {
	d, ok := report.DependenceOf(r.Family, r.Params, figure)
	if !ok || (d.Probe == ProbeFsync && d0.Env.Disk.Storage != nil) {
		return report.Dependence{}, false
	}
	return d, true
}
