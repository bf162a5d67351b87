package board

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/study"
)

// machine describes one synthetic machine's run of testdata/tiny.yaml:
// its CPU probe and the repetitions of each engine's set throughput.
type machine struct {
	name      string
	cpuNs     float64
	fsyncNs   int64
	cores     int
	map_, btr []float64
}

// tinyStudy is testdata/tiny.yaml's text, or its edited form.
func tinyStudy(t *testing.T, edit func(string) string) (text, sum string) {
	t.Helper()
	data, err := os.ReadFile("testdata/tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text = string(data)
	if edit != nil {
		text = edit(text)
	}
	h := sha256.Sum256([]byte(text))
	return text, hex.EncodeToString(h[:])
}

// studyDoc is a study result document of tiny.yaml on m.
func studyDoc(t *testing.T, m machine, text, sum string) *study.Document {
	t.Helper()
	cores := m.cores
	if cores == 0 {
		cores = 2
	}
	r := &result.Document{
		Schema: result.Schema, Tool: result.Tool{Name: "dbmeter", Version: "v-test"},
		StartedAt: time.Date(2026, 12, 1, 0, 20, 0, 0, time.UTC),
		Env: result.Env{CPUModel: "Test CPU", CPUs: cores, GOMAXPROCS: cores, MemBytes: 8 << 30, OS: "linux", Kernel: "Linux 6.1", Go: "go1.26.8",
			Disk: result.Disk{Path: "/tmp/kv", FS: "ext4", Fsync: &result.FsyncProbe{Method: "write", Ops: 200, P50Ns: max(m.fsyncNs, 100_000), MaxNs: 10_000_000, OpsPerS: 5000}}},
		Command: "dbmeter kv --engines map,btree --ops set --fsync false",
		Machine: &result.Machine{Reference: &result.Reference{Points: []result.ReferencePoint{
			{At: "start", Probes: []result.Probe{{Name: "cpu", MedianNs: m.cpuNs, Spread: 0.02, N: 7}, {Name: "loopback", MedianNs: 30_000, Spread: 0.1, N: 7}}},
			{At: "end", Probes: []result.Probe{{Name: "cpu", MedianNs: m.cpuNs, Spread: 0.02, N: 7}, {Name: "loopback", MedianNs: 30_000, Spread: 0.1, N: 7}}},
		}}},
	}
	for target, reps := range map[string][]float64{"map": m.map_, "btree": m.btr} {
		for i, x := range reps {
			r.Runs = append(r.Runs, result.Run{Family: "kv", Target: target, Workload: "set", Params: map[string]string{"fsync": "false"},
				Mode: "closed", Workers: 2, Repeat: i + 1,
				Stats: result.Stats{DurationS: 1, Ops: int64(x), OpsPerS: x, Latency: result.Latency{Min: 1, P50: 2, P90: 3, P99: 4, P999: 5, Max: 6}}})
		}
	}
	return &study.Document{Schema: study.Schema, Study: "tiny", Title: "A tiny study for the board's tests", File: "testdata/tiny.yaml",
		SHA256: sum, Quick: false, StartedAt: r.StartedAt, WallS: 3, Text: text,
		Steps: []study.StepRun{{ID: "cpu", Command: "dbmeter kv --engines map,btree --ops set --fsync false", WallS: 3, Result: r}}}
}

// write writes doc as name.json in dir and returns the path.
func write(t *testing.T, dir, name string, doc any) string {
	t.Helper()
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// reps are three repetitions around x, spread by d.
func reps(x, d float64) []float64 { return []float64{x - d, x, x + d} }
