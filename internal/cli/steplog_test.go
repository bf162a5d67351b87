package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"
)

// TestStudyRefusalSaidOnce: a step's one-line refusal is printed once, in
// study run's line about the step, not also as the step's own last line
// above it (every storage-profile refusal was printed twice).
func TestStudyRefusalSaidOnce(t *testing.T) {
	t.Parallel()
	servertest.E2E(t, "runs a study's steps as processes of their own")
	shm, err := os.MkdirTemp("/dev/shm", "dbmeter-study-")
	if err != nil {
		t.Skipf("no /dev/shm (tmpfs) to refuse a storage profile on: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	file := filepath.Join(t.TempDir(), "profile.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(profileStudy, "DIR", filepath.Join(shm, "kv"), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, "study", "run", file)
	const refusal = "the storage profile cannot be applied"
	if code != 0 || strings.Count(stderr, refusal) != 1 || !strings.Contains(stderr, "step hdd skipped: cannot run here: --storage-profile hdd: "+refusal) {
		t.Errorf("exit %d; want 0 and the refusal once, in the study's line about the step:\n%s", code, stderr)
	}
}
