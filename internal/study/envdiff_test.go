package study

import (
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Each aspect of an environment is said plainly: the published count of
// logical CPUs, the memory, a product's version, the concurrency.
func TestEnvironmentVerdicts(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"40 logical against 2", countVerdict("2 CPUs, 20 physical cores, 40 logical (hyper-threading)", 2, "logical", "vCPUs", "cores", "CPUs"), differs},
		{"2 vCPUs against 2", countVerdict("2 vCPUs per server", 2, "logical", "vCPUs", "cores", "CPUs"), same},
		{"cores not stated", countVerdict("not stated (a second machine)", 2, "logical"), notStated},
		{"32 GB against 23.5 GiB", memoryVerdict("32 GB", 23.5), differs},
		{"8 GB against 7.8 GiB", memoryVerdict("8 GB", 7.8), same},
		{"PostgreSQL 17 against 15.18", versionVerdict("PostgreSQL 17", []string{"PostgreSQL 15.18 (Debian 15.18-0+deb12u1)"}), differs},
		{"PostgreSQL 15 against 15.18", versionVerdict("PostgreSQL 15", []string{"PostgreSQL 15.18"}), same},
		{"no server on both sides", versionVerdict("embedded engines, no server", nil), same + " (no server)"},
		{"Go version not stated", versionVerdict("Go (version not stated)", []string{"go1.26.8"}), notStated},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

// The differences of an environment are read from its tables' steps as
// they ran: a step under the hdd storage profile shows the profile and its
// limits (not the disk as it is), a step without one the disk and its
// fsync, each row with its steps; the workers are grouped by step.
func TestEnvironmentFromTheSteps(t *testing.T) {
	disk := result.Disk{Device: "vda", FS: "ext4", Fsync: &result.FsyncProbe{P50Ns: 132_000, OpsPerS: 7000}}
	hdd := disk
	hdd.Storage = &result.Storage{Profile: "hdd", Limits: "riops=150,wiops=150", Hierarchy: "cgroup v1", Device: "vda 254:0",
		Probe: &result.StorageProbe{ReadIOPS: 149, WriteIOPS: 148}}
	step := func(id string, d result.Disk, workers ...int) *StepRun {
		var runs []result.Run
		for i, w := range workers {
			runs = append(runs, result.Run{Workload: []string{"set", "setmixed"}[i%2], Workers: w})
		}
		return &StepRun{ID: id, Result: &result.Document{Env: result.Env{CPUs: 2, Disk: d}, Runs: runs}}
	}
	g := envGrid(Environment{ID: "hdd", Disk: "900 GB SAS hard disk, 10,500 rpm", Concurrency: "40 goroutines"},
		[]*StepRun{step("nofsync", disk, 2, 1), step("fsync-hdd", hdd, 2, 1)})
	rows := map[string][]string{}
	for _, r := range g.Rows {
		rows[r[0]] = r
	}
	for _, tt := range []struct{ row, here, verdict string }{
		{"disk (nofsync)", "this disk as it is: vda ext4. Measured at each step's start, nofsync: fsync p50 132µs", differs},
		{"disk (fsync-hdd)", "the hdd storage profile: riops=150,wiops=150 (cgroup v1 on vda 254:0). Measured at each step's start, fsync-hdd: 149 read and 148 write IOs/s", "emulated"},
		{"concurrency", "2 workers, 1 in setmixed: nofsync, fsync-hdd", "differs (2 here, 40 published)"},
	} {
		r, ok := rows[tt.row]
		if !ok {
			t.Errorf("no row %q in %v", tt.row, g.Rows)
			continue
		}
		if r[2] != tt.here || r[3] != tt.verdict {
			t.Errorf("%s: here %q, %q; want %q, %q", tt.row, r[2], r[3], tt.here, tt.verdict)
		}
	}
	if r := rows["disk (fsync-hdd)"]; r != nil && strings.Contains(r[2], "132µs") {
		t.Error("the hdd step's disk shows the unthrottled disk's fsync")
	}
}
