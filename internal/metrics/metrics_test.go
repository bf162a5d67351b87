package metrics

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// twoOps alternates between "get" and "set"; every 7th set fails.
func twoOps(context.Context, int, *rand.Rand) (load.Worker, error) {
	n := 0
	return load.WorkerFunc(func(context.Context) (load.Outcome, error) {
		n++
		time.Sleep(20 * time.Microsecond)
		if n%2 == 0 {
			if n%7 == 0 {
				return load.Outcome{Op: 1}, load.WithKind(errors.New("boom"), load.KindServer)
			}
			return load.Outcome{Op: 1, Rows: 1, Bytes: 10}, nil
		}
		return load.Outcome{Op: 0}, nil
	}), nil
}

func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("scrape %s: %s: %s", url, resp.Status, body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("parse scrape: %v\n%s", err, body)
	}
	return mfs
}

// value finds the metric of family name whose labels include want.
func value(mfs map[string]*dto.MetricFamily, name string, want map[string]string) (*dto.Metric, bool) {
	mf := mfs[name]
	if mf == nil {
		return nil, false
	}
next:
	for _, m := range mf.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		return m, true
	}
	return nil, false
}

// TestScrapeDuringRun drives a real run, scrapes the endpoint while it
// runs, and checks the final counts against the run's result.
func TestScrapeDuringRun(t *testing.T) {
	t.Parallel()
	m := New()
	srv, err := Serve("127.0.0.1:0", m)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	cfg := load.DefaultConfig()
	cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Workers = 1200*time.Millisecond, 0, 100*time.Millisecond, 2
	cfg.InProcessTarget = true
	ops := []string{"get", "set"}
	done := make(chan *load.Result)
	go func() {
		res, err := load.Run(context.Background(), cfg, ops, twoOps, m.Watcher("kv", "map", "mixed", ops))
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()

	get := map[string]string{"family": "kv", "target": "map", "workload": "mixed", "operation": "get"}
	var seen []float64
	deadline := time.Now().Add(10 * time.Second)
	for len(seen) < 3 && time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		if c, ok := value(scrape(t, srv.URL()), OpsTotal, get); ok {
			if v := c.GetCounter().GetValue(); len(seen) == 0 || v > seen[len(seen)-1] {
				seen = append(seen, v)
			}
		}
	}
	if len(seen) < 3 {
		t.Errorf("the get counter did not move during the run: %v", seen)
	}
	res := <-done
	if res == nil {
		t.FailNow()
	}

	final := scrape(t, srv.URL())
	for i, op := range ops {
		run := res.Fill(result.Run{}, cfg, i)
		labels := map[string]string{"family": "kv", "target": "map", "workload": "mixed", "operation": op}
		h, ok := value(final, Latency, labels)
		if !ok {
			t.Fatalf("no %s histogram for %s", Latency, op)
		}
		if got := h.GetHistogram().GetSampleCount(); got != uint64(run.Ops) {
			t.Errorf("%s: histogram count %d, want the result's ops %d", op, got, run.Ops)
		}
		c, _ := value(final, OpsTotal, labels)
		if got := c.GetCounter().GetValue(); got != float64(run.Ops) {
			t.Errorf("%s: %s %g, want %d", op, OpsTotal, got, run.Ops)
		}
		if run.Errors > 0 {
			e, ok := value(final, ErrorsTotal, map[string]string{"operation": op, "kind": load.KindServer})
			if !ok || e.GetCounter().GetValue() != float64(run.ErrorKinds[load.KindServer]) {
				t.Errorf("%s: errors{kind=server} = %v, want %d", op, e, run.ErrorKinds[load.KindServer])
			}
		}
	}
	set := res.Fill(result.Run{}, cfg, 1)
	if set.Errors == 0 {
		t.Errorf("the set operation should have failed sometimes: %+v", set.ErrorKinds)
	}
}

func TestBucketCounts(t *testing.T) {
	t.Parallel()
	h := hist.New()
	for _, v := range []int64{50, 100, 150, 1_000_000, 3_000_000_000, 20_000_000_000} {
		h.RecordValue(v)
	}
	counts, sum := bucketCounts(h)
	var total uint64
	for _, n := range counts {
		total += n
	}
	if total != 6 {
		t.Errorf("bucket counts add up to %d, want 6", total)
	}
	tests := []struct {
		bound float64 // upper bound in seconds
		want  uint64  // values at or below it, cumulative
	}{
		{1e-7, 2}, // 50ns and 100ns: le includes the bound
		{2e-7, 3}, // 150ns
		{1e-3, 4}, // 1ms
		{5, 5},    // 3s
		{10, 5},   // 20s lies beyond the last bound
	}
	for _, tt := range tests {
		var cum uint64
		for j, b := range Buckets {
			cum += counts[j]
			if b == tt.bound {
				break
			}
		}
		if cum != tt.want {
			t.Errorf("le=%g: %d values, want %d (counts %v)", tt.bound, cum, tt.want, counts)
		}
	}
	if sum < 23 || sum > 23.01 {
		t.Errorf("sum %g s, want about 23.001", sum)
	}
}

func TestIsLoopback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:9100", true},
		{"localhost:9100", true},
		{"[::1]:9100", true},
		{":9100", false}, // every interface
		{"0.0.0.0:9100", false},
		{"10.0.0.5:9100", false},
		{"nonsense", false},
	}
	for _, tt := range tests {
		if got := IsLoopback(tt.addr); got != tt.want {
			t.Errorf("IsLoopback(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}
