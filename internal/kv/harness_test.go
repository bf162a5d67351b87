package kv

import (
	"context"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv/workload"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
)

func harnessOptions(engines ...string) MatrixOptions {
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Duration, cfg.Count, cfg.Warmup = 4, 0, 400, 0
	return MatrixOptions{Engines: engines, Fsync: "true", Spec: workload.DefaultSpec(), Load: cfg, Repeat: 1, Flags: map[string]string{}}
}

// The harness shape runs its phases in the harness's order on one store,
// each a count split over the workers: set writes what get then finds,
// and cznic/kv's writes are recorded as not synced with fsync on, as its
// harness store never read the flag.
func TestHarnessShape(t *testing.T) {
	h, err := NewHarness(harnessOptions("map:memory", "cznic/kv", "bbolt"))
	if err != nil {
		t.Fatal(err)
	}
	h.Dir = t.TempDir()
	p := h.Plan()
	if len(p.Steps) != 3 {
		t.Fatalf("%d steps, want one per engine", len(p.Steps))
	}
	for _, st := range p.Steps {
		runs, err := st.Run(context.Background(), plan.Rep{N: 1, Seed: 1, WatchAs: func(string, ...string) load.Watcher { return nil }})
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, r := range runs {
			order = append(order, r.Workload)
			synced := r.Extra["writes_synced"]
			if want := st.Target != "cznic/kv"; (synced == 1) != want {
				t.Errorf("%s %s: writes_synced %v, want %v", st.Target, r.Workload, synced, want)
			}
			switch r.Workload {
			case "set", "get", "del", "getmixed":
				if r.Ops != 400 || r.Workers != 4 {
					t.Errorf("%s %s: %d ops on %d workers, want 400 on 4", st.Target, r.Workload, r.Ops, r.Workers)
				}
			case "setmixed":
				if r.Workers != 1 || r.OpsPerS <= 0 {
					t.Errorf("%s setmixed: %d workers at %v/s, want one writer that wrote", st.Target, r.Workers, r.OpsPerS)
				}
			}
			if r.Workload == "get" && r.Extra["get_misses"] != 0 {
				t.Errorf("%s get: %v misses after set wrote the same keys", st.Target, r.Extra["get_misses"])
			}
		}
		if got := strings.Join(order, ","); got != "set,get,setmixed,getmixed,del" {
			t.Errorf("%s: runs %s, want the harness's order", st.Target, got)
		}
		if sw := runs[0].Params[result.SettingFsyncSwitch]; (st.Target == "cznic/kv") != strings.Contains(sw, "not applied") {
			t.Errorf("%s: fsync switch %q", st.Target, sw)
		}
	}
}

func TestNewHarnessRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(o *MatrixOptions)
		want string
	}{
		{"duration", func(o *MatrixOptions) { o.Load.Count, o.Load.Duration = 0, 1e9 }, "give {Count}"},
		{"some ops", func(o *MatrixOptions) { o.Ops = []string{"set", "get"} }, "give all five in {Ops}"},
		{"key size", func(o *MatrixOptions) { o.Spec.KeySize = 16 }, "drop {KeySize}"},
		{"open loop", func(o *MatrixOptions) { o.Load.Rate = 100 }, "drop {Rate}"},
		{"warmup", func(o *MatrixOptions) { o.Load.Warmup = 1e6 }, "drop {Warmup}"},
		{"fsync", func(o *MatrixOptions) { o.Fsync = "sometimes" }, "{Fsync}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := harnessOptions("map")
			c.edit(&o)
			if _, err := NewHarness(o); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewHarness: %v, want an error saying %q", err, c.want)
			}
		})
	}
	o := harnessOptions("map")
	o.Ops = []string{"del", "set", "get", "getmixed", "setmixed"}
	if _, err := NewHarness(o); err != nil {
		t.Errorf("all five ops in another order: %v", err)
	}
}
