package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

func kvRun(engine, op, fsync string, opsPerS float64, p50 int64) result.Run {
	r := result.Run{Family: "kv", Target: engine, Workload: op, Repeat: 1,
		Params: map[string]string{"fsync": fsync, "workers": "2", "preloaded_keys": "20000", "key-size": "9", "value-size": "256", "duration": "500ms", "count": "0"}}
	r.OpsPerS = opsPerS
	r.Latency = result.Latency{P50: p50, P99: 2 * p50, Mean: 1.5 * float64(p50)}
	if op == "batchset" {
		r.RowsPerS = 100 * opsPerS
		r.Extra = map[string]float64{"ns_per_key": 1.5 * float64(p50) / 100}
	}
	return r
}

// The kv layout is the seed's: per fsync mode a throughput table and a
// latency table, operations as rows in run order, engines as columns.
func TestKVTables(t *testing.T) {
	runs := []result.Run{
		kvRun("pebble", "set", "false", 400000, 1600),
		kvRun("pebble", "get", "false", 70000, 15000),
		kvRun("map", "get", "false", 2000000, 500),
		kvRun("map", "set", "false", 300000, 1700),
		kvRun("map", "batchset", "false", 3000, 100000),
		kvRun("map", "set", "true", 1800, 115000),
	}
	runs[3].Errors = 2
	var buf bytes.Buffer
	if err := kvTables(result.Disk{})(&buf, runs); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"kv  fsync off  ·  2 workers  ·  20,000 keys preloaded  ·  key 9B value 256B  ·  500ms per operation",
		"throughput (ops/s)   pebble        map",
		"                   set  400,000   300,000!",
		"                   get   70,000  2,000,000",
		"  batchset (batches/s)        -      3,000",
		"     batchset (keys/s)        -    300,000",
		"                get p50  15.0µs    500ns",
		"  batchset mean per key       -   1.50µs",
		"kv  fsync on (every write durable before it is acknowledged)",
		"         set p50  115µs",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("kv tables lack %q; got:\n%s", want, out)
		}
	}
	if strings.Index(out, "     set") > strings.Index(out, "     get") {
		t.Errorf("set must come before get:\n%s", out)
	}
}
