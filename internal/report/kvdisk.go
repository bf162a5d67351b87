package report

import (
	"fmt"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// kvDiskLine says, beside an fsync-on table, what the disk under the runs
// is and what one durable write costs on it: the yardstick for every
// number in the table.
func kvDiskLine(d result.Disk) string {
	var dev []string
	if d.Device != "" {
		dev = append(dev, d.Device)
	}
	if d.Model != "" {
		dev = append(dev, d.Model)
	}
	if d.Driver != "" {
		dev = append(dev, d.Driver)
	}
	where := d.FS
	if len(dev) > 0 {
		where += " on " + strings.Join(dev, ", ")
	}
	rot := "non-rotational"
	if d.Rotational {
		rot = "rotational"
	}
	head := fmt.Sprintf("disk  %s: %s, kernel flag %s", d.Path, where, rot)
	p := d.Fsync
	switch {
	case p == nil:
		return head + "  ·  no fsync probe in this result (the run skipped the disk probe): nothing to judge these numbers against"
	case p.Error != "":
		return head + "  ·  fsync probe failed: " + p.Error
	}
	// The rate is the probes over the time they took together: it goes
	// with their mean, not the p50 (a p50 of 332µs "= 254/s" read as a
	// contradiction when a few slow flushes held the mean at 3.9ms).
	return fmt.Sprintf("%s  ·  one fsync (%s B write + fdatasync, %d probes): p50 %s  p99 %s  min %s  mean %s (%s/s)",
		head, Count(float64(p.WriteBytes)), p.Ops, Nanos(p.P50Ns), Nanos(p.P99Ns), Nanos(p.MinNs), Nanos(fsyncMean(p)), Count(p.OpsPerS))
}

// fsyncMean is one probe's mean time, from their rate.
func fsyncMean(p *result.FsyncProbe) int64 {
	if p.OpsPerS <= 0 {
		return 0
	}
	return int64(1e9 / p.OpsPerS)
}

// DiskSummary is the disk under a document's runs in a few words for a
// report header: its filesystem, the kernel's rotational flag (a guess for
// virtual and RAID devices, so named as the flag it is) and, when probed,
// what one fsync costs, which is the figure to trust.
func DiskSummary(d result.Disk) string {
	if d.FS == "" {
		return ""
	}
	rot := "non-rotational"
	if d.Rotational {
		rot = "rotational"
	}
	s := fmt.Sprintf("%s (kernel flag %s)", d.FS, rot)
	if p := d.Fsync; p != nil && p.Error == "" && p.Ops > 0 {
		s += fmt.Sprintf(", one fsync p50 %s, mean %s (%s/s)", Nanos(p.P50Ns), Nanos(fsyncMean(p)), Count(p.OpsPerS))
	}
	if st := storageSummary(d); st != "" {
		s += ", " + st
	}
	return s
}

// kvDurableWrites are the operations that, with fsync on, each wait for
// their data to be durable.
var kvDurableWrites = map[string]string{"set": "write", "del": "delete", "setmixed": "write", "batchset": "batch"}

// kvImplausible says why an fsync-on run r was faster than the disk allows,
// or "" when it was not. A durable write is acknowledged only when a flush
// that started after it was issued has ended, so no write can take less
// than the fastest flush the disk can do, however many writers share each
// flush (group commit). The probe's fastest flush, halved for a disk whose
// flushes vary, is the floor; a run whose median write beats it was
// acknowledged before its data was durable.
func kvImplausible(r result.Run, p *result.FsyncProbe) string {
	what, write := kvDurableWrites[r.Workload]
	// A cell that completed nothing has an empty histogram, whose p50 of
	// 0 is no latency: "no operation completed" says what it is.
	if !write || p == nil || p.Error != "" || p.MinNs <= 0 || r.Ops == 0 || r.Latency.P50 <= 0 || !r.BoolSetting(result.SettingFsync) {
		return ""
	}
	if sw, _ := r.Setting(result.SettingFsyncSwitch); strings.HasPrefix(sw, "none") {
		return "" // a memory engine keeps nothing and claims no durability
	}
	if kvUnsynced(r) != "" {
		return "" // declared unsynced: it claims no durability either
	}
	floor := p.MinNs / 2
	if r.Latency.P50 >= floor {
		return ""
	}
	workers := max(r.Workers, 1)
	sharing := "one writer"
	if workers > 1 {
		sharing = fmt.Sprintf("%d workers sharing every fsync", workers)
	}
	ceiling := float64(workers) * 1e9 / float64(p.MinNs)
	return fmt.Sprintf("%s %s with fsync on: p50 %s per %s (%s/s), but the fastest fsync on this disk took %s (probe: p50 %s): "+
		"a %s cannot be durable sooner, and %s could reach at most %s/s. "+
		"Something acknowledged it before the data was durable (a volatile write cache or an engine that did not sync): physically implausible, do not publish it.",
		r.Target, r.Workload, Nanos(r.Latency.P50), what, Count(r.OpsPerS), Nanos(p.MinNs), Nanos(p.P50Ns),
		what, sharing, Count(ceiling))
}

// kvUnsynced says, of an fsync-on write run whose engine recorded that it
// did not sync its writes (extra.writes_synced 0: the harness shape's
// cznic/kv, whose store in seed 004's harness never read the fsync flag,
// reproduced as it was), that its figure is that declared unsynced column:
// fast because nothing waited for the disk, not implausibly fast. "" for
// a run that synced, or that records nothing about it (the cells shape).
func kvUnsynced(r result.Run) string {
	_, write := kvDurableWrites[r.Workload]
	synced, recorded := r.Extra["writes_synced"]
	if !write || !recorded || synced >= 1 || !r.BoolSetting(result.SettingFsync) {
		return ""
	}
	why := "its engine did not sync its writes"
	if sw, _ := r.Setting(result.SettingFsyncSwitch); sw != "" {
		why = sw
	}
	return fmt.Sprintf("%s: writes not synced with fsync on (writes_synced 0; fsync_switch: %s): its figures here are the declared unsynced column, "+
		"as the source's were, not durable writes, and are not judged against the disk", r.Target, why)
}

// durability is what an fsync-on matrix says of its writes against the
// disk: a line for each engine that declared its writes unsynced, and a
// warning for each cell faster than the disk allows.
func (m kvMatrix) durability(p *result.FsyncProbe) (unsynced, implausible []string) {
	for _, e := range m.engines {
		declared := false
		for _, op := range m.ops {
			r, ok := m.pooled[[2]string{op, e}]
			if !ok {
				continue
			}
			if u := kvUnsynced(r); u != "" && !declared {
				unsynced, declared = append(unsynced, u), true
			}
			if why := kvImplausible(r, p); why != "" {
				implausible = append(implausible, why)
			}
		}
	}
	return unsynced, implausible
}
