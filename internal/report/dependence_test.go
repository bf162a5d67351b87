package report

import (
	"math"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Each family's runs find the probe declared for them, by setting where
// the declaration names one; a family with none is not normalised.
func TestDependenceOf(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		family string
		params map[string]string
		probe  string // "" for none
	}{
		{"kv", map[string]string{"fsync": "false"}, ProbeCPU},
		{"kv", map[string]string{"fsync": "true"}, ProbeFsync},
		{"kv", map[string]string{}, ""},
		{"null", nil, ProbeCPU},
		{"pg", map[string]string{"fsync": "true"}, ProbeLoopback},
		{"ch", nil, ProbeLoopback},
		{"other", nil, ""},
	} {
		d, ok := DependenceOf(c.family, c.params, "throughput")
		if got := map[bool]string{true: d.Probe}[ok]; got != c.probe || (ok && d.Why == "") {
			t.Errorf("%s %v: probe %q (why %q), want %q with a why", c.family, c.params, got, d.Why, c.probe)
		}
	}
	if len(Dependences()) == 0 {
		t.Error("no declarations to list")
	}
}

// The fsync cost is the probe's time per durable write with its waits in
// it: docs/board's hdd machine, throttled to 150 IOs/s, had a p50 like
// plain's but did 73 fsyncs a second.
func TestProbeOfFsyncIsTheSustainedCost(t *testing.T) {
	t.Parallel()
	doc := func(p *result.FsyncProbe) *result.Document {
		return &result.Document{Env: result.Env{Disk: result.Disk{Fsync: p}}}
	}
	got, ok := ProbeOf(doc(&result.FsyncProbe{Ops: 76, P50Ns: 252934, P99Ns: 99282495, MaxNs: 99282495, OpsPerS: 73.03}), ProbeFsync)
	if want := 1e9 / 73.03; !ok || math.Abs(got-want) > 1 {
		t.Errorf("fsync cost %v, %v; want %v (1/ops_s), not the p50", got, ok, want)
	}
	for _, p := range []*result.FsyncProbe{nil, {Error: "no disk"}, {P50Ns: 100}} {
		if v, ok := ProbeOf(doc(p), ProbeFsync); ok {
			t.Errorf("probe %+v: cost %v, want none", p, v)
		}
	}
	if _, ok := ProbeOf(doc(nil), ProbeCPU); ok {
		t.Error("a CPU loop from a document with no machine reference")
	}
}
