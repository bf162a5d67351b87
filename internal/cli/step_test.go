package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/servertest"
	"github.com/dbmeter/dbmeter/internal/study"
)

// stepsStudy is a study of the given steps (id, command line) and no
// table: enough for study run to run them and record their documents.
func stepsStudy(t *testing.T, steps ...[2]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("id: steptest\ntitle: steps as processes\nsource: dbmeter's own test\nsteps:\n")
	for _, s := range steps {
		fmt.Fprintf(&b, "  - id: %s\n    run: %s\n", s[0], s[1])
	}
	file := filepath.Join(t.TempDir(), "steps.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// runSteps runs a study of steps and returns its result document.
func runSteps(t *testing.T, steps ...[2]string) *study.Document {
	t.Helper()
	out := filepath.Join(t.TempDir(), "study.json")
	code, stdout, stderr := run(t, "study", "run", stepsStudy(t, steps...), "--json", out)
	if code != 0 {
		t.Fatalf("study run: exit %d\n%s\n%s", code, stderr, stdout)
	}
	doc, _, err := study.ReadDocument(out)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// A kv step's peak resident set is its own: a step after one that held
// ~120 MiB of values reports far less. Were the steps one process, the
// second would start from the first's heap (Go returns freed memory to the
// kernel slowly) and report about as much.
func TestStudyStepPeakRSSIsItsOwn(t *testing.T) {
	servertest.E2E(t, "runs two kv steps as child processes, one holding 120 MiB")
	common := "kv --engines map:memory --ops get --workers 1 --duration 50ms --warmup 0s --repeat 1 --no-disk-probe"
	doc := runSteps(t,
		[2]string{"heavy", common + " --keys 60000 --value-size 2048"},
		[2]string{"light", common + " --keys 1000 --value-size 64"})
	peak := map[string]float64{}
	for _, st := range doc.Steps {
		if st.Error != "" || st.Result == nil || len(st.Result.Runs) == 0 {
			t.Fatalf("step %s: error %q, result %v", st.ID, st.Error, st.Result)
		}
		v, ok := st.Result.Runs[0].Extra["peak_rss_bytes"]
		if !ok {
			t.Skipf("step %s recorded no peak_rss_bytes (the kernel refused /proc/self/clear_refs)", st.ID)
		}
		peak[st.ID] = v
	}
	t.Logf("peak RSS: heavy %.0f MiB, light %.0f MiB", peak["heavy"]/(1<<20), peak["light"]/(1<<20))
	if peak["heavy"] < 120<<20 {
		t.Fatalf("the heavy step's peak RSS is %.0f MiB, under the 120 MiB of values it held: not measured", peak["heavy"]/(1<<20))
	}
	if peak["light"] > peak["heavy"]/2 {
		t.Errorf("the light step's peak RSS %.0f MiB is not its own: the heavy step before it peaked at %.0f MiB", peak["light"]/(1<<20), peak["heavy"]/(1<<20))
	}
}

// Under a storage profile only the step's process enters the profile's
// cgroup: the study (this test process) never does, and the cgroup is
// named by the step's PID, not the study's.
func TestStudyStepAloneInCgroup(t *testing.T) {
	servertest.E2E(t, "runs a kv step as a child process in a cgroup of its own")
	storageLayout(t)
	var entered atomic.Value
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() { // the study's own cgroups, all the while the step runs
		defer close(watched)
		for {
			if b, err := os.ReadFile("/proc/self/cgroup"); err == nil && strings.Contains(string(b), "/dbmeter-") {
				entered.Store(string(b))
			}
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	doc := runSteps(t, [2]string{"hdd", "kv --storage-profile hdd --engines map --ops get --duration 100ms --repeat 1 --no-disk-probe"})
	close(done)
	<-watched
	if in, ok := entered.Load().(string); ok {
		t.Errorf("the study process entered the step's cgroup:\n%s", in)
	}
	st := doc.Steps[0]
	if st.Skipped != "" {
		t.Skipf("the step cannot run here: %s", st.Skipped)
	}
	if st.Error != "" || st.Result == nil || st.Result.Env.Disk.Storage == nil {
		t.Fatalf("step: error %q, no storage record in %v", st.Error, st.Result)
	}
	self := fmt.Sprintf("/%s%d-", "dbmeter-", os.Getpid())
	for _, g := range st.Result.Env.Disk.Storage.Cgroups {
		if strings.Contains(g, self) || !strings.Contains(g, "/dbmeter-") {
			t.Errorf("cgroup %s is not the step's own (the study is PID %d)", g, os.Getpid())
		}
	}
}
