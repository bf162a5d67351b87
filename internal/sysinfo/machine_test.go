package sysinfo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// hog starts n real busy-loop processes named name (a symlink to sh, so
// that /proc shows that name). detached ones are orphaned at once, as a
// process on the machine that dbmeter did not start; the others are this
// process's children, as dbmeter's external workers are. They are killed
// when the test ends.
func hog(t *testing.T, name string, n int, detached bool) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to run a busy loop")
	}
	bin := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(sh, bin); err != nil {
		t.Fatal(err)
	}
	for range n {
		var pid int
		if detached {
			out, err := exec.Command(sh, "-c", `"$0" -c 'while :; do :; done' >/dev/null 2>&1 & echo $!`, bin).Output()
			if err != nil {
				t.Fatal(err)
			}
			if pid, err = strconv.Atoi(strings.TrimSpace(string(out))); err != nil {
				t.Fatal(err)
			}
		} else {
			cmd := exec.Command(bin, "-c", "while :; do :; done")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid = cmd.Process.Pid
			t.Cleanup(func() { cmd.Wait() })
		}
		t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	}
}

func named(m *result.Machine, name string) (result.ProcessCPU, bool) {
	for _, p := range m.TopOthers {
		if p.Name == name {
			return p, true
		}
	}
	return result.ProcessCPU{}, false
}

// A run made beside a CPU hog records the hog's CPU under its name, among
// other processes', and is marked busy; a busy loop that dbmeter itself
// started (as it starts external workers) is dbmeter's own CPU instead.
func TestMonitorCountsHogs(t *testing.T) {
	servertest.Alone(t, "starts busy loops and checks the monitor names them")
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc")
	}
	tests := []struct {
		name     string
		detached bool
		others   bool // the hog's CPU is other processes'
	}{
		{name: "dbmhog-other", detached: true, others: true},
		{name: "dbmhog-worker", detached: false, others: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hogs := 2
			hog(t, tt.name, hogs, tt.detached)
			m := Watch(time.Second)
			time.Sleep(2500 * time.Millisecond)
			got := m.Stop()
			t.Logf("others %.2f own %.2f target %.2f steal %.1f%% load %.1f→%.1f top %+v intervals %d",
				got.OthersCores, got.OwnCores, got.TargetCores, got.StealPct, got.Start.Load1, got.End.Load1, got.TopOthers, len(got.Intervals))
			if len(got.Intervals) < 2 {
				t.Errorf("%d intervals, want one per second", len(got.Intervals))
			}
			p, found := named(got, tt.name)
			if tt.others {
				// Even on a shared machine, two busy loops get a
				// fair share of a core between them.
				if !found || p.Cores < 0.05 || p.Processes != hogs {
					t.Fatalf("the hog is not among the others: %+v", got.TopOthers)
				}
				if got.OthersCores < p.Cores*0.9 {
					t.Errorf("others %.2f cores, less than the hog's own %.2f", got.OthersCores, p.Cores)
				}
				if !got.Busy || got.BusyLine() == "" {
					t.Errorf("a run beside a hog of %.2f cores is not marked busy", p.Cores)
				}
				return
			}
			if found {
				t.Errorf("dbmeter's own child counted as another process: %+v", p)
			}
			if got.OwnCores < 0.05 {
				t.Errorf("own %.2f cores: the child hog is not counted as dbmeter's", got.OwnCores)
			}
		})
	}
}

// A process's time counts in the interval it was spent in, whichever set it
// was seen in. The target's backends are seen only while dbmeter is
// connected: one that drops out of the target set between two samples
// (the run closed its connections) must not move its whole lifetime into
// other processes' time, which once read "busiest interval 219.86" cores
// on a 2-core machine.
func TestIntervalSetsThatChange(t *testing.T) {
	t0 := time.Unix(1000, 0)
	backend := func(ticks uint64) map[int]proc {
		return map[int]proc{1: {comm: "dbmeter", ticks: 50}, 7: {comm: "postgres", ticks: ticks}}
	}
	tests := []struct {
		name         string
		aTgt, bTgt   map[int]bool
		wantTgt      float64
		wantOthersLE float64
	}{
		{"target seen at both", map[int]bool{7: true}, map[int]bool{7: true}, 0.5, 0.01},
		{"target gone at the end", map[int]bool{7: true}, map[int]bool{}, 0.5, 0.01},
		{"target found in the middle", map[int]bool{}, map[int]bool{7: true}, 0.5, 0.01},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Monitor{begin: t0}
			// 100 ticks a second; the backend used 50 of the 100 busy
			// ticks of this second after 2,000,000 in its life before.
			a := snapshot{at: t0, ok: true, cpu: cpuTimes{busy: 1000, total: 5000}, procs: backend(2_000_000), own: map[int]bool{1: true}, tgt: tt.aTgt}
			b := snapshot{at: t0.Add(time.Second), ok: true, cpu: cpuTimes{busy: 1050, total: 5200}, procs: backend(2_000_050), own: map[int]bool{1: true}, tgt: tt.bTgt}
			iv, ok := m.interval(a, b)
			if !ok {
				t.Fatal("no interval")
			}
			if iv.TargetCores != tt.wantTgt || iv.OthersCores > tt.wantOthersLE {
				t.Errorf("target %.2f cores, others %.2f: want target %.2f and others at most %.2f", iv.TargetCores, iv.OthersCores, tt.wantTgt, tt.wantOthersLE)
			}
		})
	}
}

// The run's averages are its intervals' weighted by their lengths.
func TestAveragedIntervals(t *testing.T) {
	got, ok := averaged([]result.MachineInterval{{TS: 1, OthersCores: 2, TargetCores: 1}, {TS: 4, OthersCores: 0, TargetCores: 1}})
	if !ok || got.OthersCores != 0.5 || got.TargetCores != 1 {
		t.Errorf("averaged = %+v, %v; want others 0.5, target 1", got, ok)
	}
}
