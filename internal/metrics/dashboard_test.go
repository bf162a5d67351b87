package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/hist"
	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

// exported returns every metric name the endpoint serves once a run has
// ticked, with the _bucket/_sum/_count series of histograms.
func exported(t *testing.T) map[string]bool {
	t.Helper()
	m := New()
	set := hist.NewSet(1, hist.Kept{})
	set[0].Latency.RecordValue(int64(time.Millisecond))
	set[0].Ops, set[0].Errors = 1, 1
	set[0].Kinds["timeout"] = 1
	m.Watcher("kv", "map", "get", []string{"get"}).Tick(load.Tick{Interval: result.Interval{Ops: 1, Dropped: 1}, Seconds: 1, Ops: set})
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, mf := range mfs {
		names[mf.GetName()] = true
		if mf.GetType().String() == "HISTOGRAM" {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				names[mf.GetName()+suffix] = true
			}
		}
	}
	return names
}

// metricName matches the metric names a PromQL expression can use here:
// dbmeter's own and the Go and process collectors'.
var metricName = regexp.MustCompile(`\b(?:dbmeter|process|go)_[a-zA-Z0-9_]+\b`)

// TestDashboardNamesExistingMetrics loads the Grafana dashboard and checks
// that every panel queries something and every metric it names is served.
func TestDashboardNamesExistingMetrics(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../dashboards/grafana-dbmeter.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Type    string
			Targets []struct{ Expr string }
		}
		Templating struct {
			List []struct {
				Name  string
				Query any
			}
		}
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("dashboard is not valid JSON: %v", err)
	}
	names := exported(t)
	check := func(where, expr string) {
		found := metricName.FindAllString(expr, -1)
		if len(found) == 0 {
			t.Errorf("%s: expression %q names no metric", where, expr)
		}
		for _, n := range found {
			if !names[n] {
				t.Errorf("%s: expression names %s, which dbmeter does not export", where, n)
			}
		}
	}
	types := map[string]bool{}
	for _, p := range dash.Panels {
		types[p.Type] = true
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			check("panel "+p.Title, tg.Expr)
		}
	}
	for _, v := range dash.Templating.List {
		if q, ok := v.Query.(map[string]any); ok {
			check("variable "+v.Name, q["query"].(string))
		}
	}
	for _, want := range []string{"heatmap", "timeseries"} {
		if !types[want] {
			t.Errorf("dashboard has no %s panel", want)
		}
	}
}
