package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/servertest"
	"github.com/dbmeter/dbmeter/internal/storage"
)

// storageLayout is this machine's cgroup layout, or a skip where dbmeter
// cannot make cgroups.
func storageLayout(t *testing.T) storage.Layout {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to make cgroups")
	}
	l, err := storage.Discover()
	if err != nil {
		t.Fatal(err)
	}
	if l.Blkio == "" || l.Memory == "" {
		t.Skip("no cgroup v1 blkio and memory controllers mounted")
	}
	return l
}

// groupsOf lists the cgroups of dbmeter process pid under the layout's
// parents (a child inherits this test's cgroups, so its own go there).
func groupsOf(l storage.Layout, pid int) []string {
	var out []string
	for _, parent := range []string{l.Blkio, l.Memory} {
		m, _ := filepath.Glob(filepath.Join(parent, fmt.Sprintf("%s%d-*", storage.NamePrefix, pid)))
		out = append(out, m...)
	}
	return out
}

// A dbmeter child interrupted mid-run by SIGINT removes its cgroups
// itself; one killed by SIGKILL cannot, and the next run under a profile
// removes them.
func TestStorageCgroupsGoneAfterInterrupt(t *testing.T) {
	servertest.E2E(t, "runs dbmeter as a child process and interrupts and kills it mid-run")
	l := storageLayout(t)
	bin := os.Args[0] // this test binary, dbmeter itself under DBMETER_TEST_MAIN (TestMain)
	long := []string{"kv", "--storage-profile", "hdd", "--engines", "map", "--ops", "set", "--fsync", "true",
		"--duration", "60s", "--repeat", "1", "--no-disk-probe", "--quiet"}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, long...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := cmd.Process.Pid
			defer cmd.Process.Kill()
			deadline := time.Now().Add(30 * time.Second)
			for len(groupsOf(l, pid)) < 2 {
				if time.Now().After(deadline) {
					t.Fatalf("dbmeter made no cgroups in 30s; stderr: %s", stderr.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
			made := groupsOf(l, pid)
			time.Sleep(1500 * time.Millisecond) // past the probe, into the run
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if sig == syscall.SIGKILL {
				if left := groupsOf(l, pid); len(left) == 0 {
					t.Log("SIGKILL left no cgroup (the kernel had nothing to keep): nothing for the next run to do")
				}
				next := exec.Command(bin, "kv", "--storage-profile", "nvme", "--engines", "map", "--ops", "get",
					"--duration", "10ms", "--repeat", "1", "--no-disk-probe", "--quiet")
				out, err := next.CombinedOutput()
				if err != nil {
					t.Fatalf("the next run: %v\n%s", err, out)
				}
				if !strings.Contains(string(out), made[0]) {
					t.Errorf("the next run did not say it removed %s:\n%s", made[0], out)
				}
			}
			if left := groupsOf(l, pid); len(left) > 0 {
				t.Errorf("after %s, cgroups of dbmeter %d are left: %v (stderr: %s)", sig, pid, left, stderr.String())
			}
		})
	}
}

// A profile that cannot be applied is refused in one line before any run:
// never run unlimited under the profile's name. A mistake in the profile
// is exit 2; a profile this machine cannot apply exit 3 (cannot run here).
func TestStorageProfileRefused(t *testing.T) {
	shm := filepath.Join("/dev/shm", fmt.Sprintf("dbmeter-test-%d", os.Getpid()))
	defer os.RemoveAll(shm)
	for _, tc := range []struct {
		name string
		args []string
		want string
		root bool // the refusal needs cgroups to be reachable
		code int
	}{
		{"unknown profile", []string{"--storage-profile", "ssd"}, "--storage-profile value \"ssd\"", false, exitUsage},
		{"bad limit", []string{"--storage-profile", "hdd,mem=lots"}, "--storage-profile: mem=lots is not a count or size", false, exitUsage},
		{"no block device", []string{"--storage-profile", "hdd", "--dir", shm}, "is on no block device", true, exitCannotRun},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.root {
				storageLayout(t)
			}
			args := append([]string{"kv", "--engines", "map", "--ops", "get", "--duration", "10ms", "--repeat", "1", "--no-disk-probe"}, tc.args...)
			code, stdout, stderr := run(t, args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, stderr %q; want exit %d and one line with %q", code, stderr, tc.code, tc.want)
			}
			if stdout != "" {
				t.Errorf("a refused run printed results: %q", stdout)
			}
		})
	}
}

// pg places only a local cluster it can name; anything else is refused in
// one line before it connects.
func TestPGStorageProfileRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"remote server", []string{"-h", "db.example.com", "-p", "5432"}, "is not on this machine"},
		{"not dev-services", []string{"-h", "127.0.0.1", "-p", "1"}, "is not the project's dev-services cluster"},
		{"two servers", []string{"--dsn", "postgres://a@127.0.0.1:1/x", "--dsn", "postgres://a@127.0.0.1:2/x"}, "one server at a time"},
		{"not a cluster", []string{"-h", "127.0.0.1", "-p", "1", "--storage-server", t.TempDir()}, "is not a running PostgreSQL cluster's data directory"},
		{"load", []string{"-i", "-s", "1"}, "-i loads the tables without a storage profile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"pg", "--storage-profile", "hdd", "-T", "1"}, tc.args...)
			code, stdout, stderr := run(t, args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line with %q", code, stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("a refused run printed results: %q", stdout)
			}
		})
	}
}

// provisioned takes its IOPS from the device: probed without limits at the
// start, scaled by seed 003's 16,000/100,000, and recorded with the figures
// it came from; the limits written are the ones the result records.
func TestProvisionedScaledByProbe(t *testing.T) {
	storageLayout(t)
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := run(t, "kv", "--storage-profile", "provisioned,wiops=400", "--engines", "map", "--ops", "get",
		"--duration", "10ms", "--warmup", "0", "--repeat", "1", "--no-disk-probe", "--quiet", "--json", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc, err := result.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	st := doc.Env.Disk.Storage
	if st == nil {
		t.Fatal("no env.disk.storage in the result")
	}
	m := regexp.MustCompile(`(\d+) reads/s × 16000/100000 = (\d+) read IOPS`).FindStringSubmatch(st.Source)
	if m == nil {
		t.Fatalf("the source does not say what the probe measured and how it scaled it: %q", st.Source)
	}
	probed, _ := strconv.ParseFloat(m[1], 64)
	riops, _ := strconv.ParseInt(m[2], 10, 64)
	if want := max(1, int64(probed*16000/100000+0.5)); riops != want || probed <= 0 {
		t.Errorf("probed %.0f reads/s scaled to %d read IOPS, want %d", probed, riops, want)
	}
	if want := fmt.Sprintf("riops=%d,wiops=400", riops); st.Limits != want {
		t.Errorf("limits %q, want %q (the scaled reads, the given writes)", st.Limits, want)
	}
}
