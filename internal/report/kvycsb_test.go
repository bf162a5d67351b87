package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

func ycsbRun(engine, op string, opsPerS float64) result.Run {
	r := kvRun(engine, op, "false", opsPerS, 2000)
	for k, v := range map[string]string{"keys": "20000", "field_count": "10", "field_length": "100", "insert_order": "hashed", "distribution": "", "duration": "1s"} {
		r.Params[k] = v
	}
	return r
}

// A YCSB cell is a row and each operation of its mix a row beneath it; the
// header describes the records; a cell the engine cannot run says so.
func TestKVTablesYCSB(t *testing.T) {
	load := ycsbRun("btree", "ycsb-load", 50000)
	load.Params["count"], load.Params["preloaded_keys"] = "20000", "0"
	unsupported := ycsbRun("map", "ycsb-e", 0)
	unsupported.Extra = map[string]float64{"not_supported": 1}
	runs := []result.Run{
		load,
		ycsbRun("btree", "ycsb-e", 200000),
		ycsbRun("btree", "ycsb-e/insert", 10000),
		ycsbRun("btree", "ycsb-e/scan", 190000),
		unsupported,
	}
	var buf bytes.Buffer
	if err := kvTables(result.Disk{})(&buf, runs); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"kv fsync off: throughput\n2 workers  ·  20,000 keys preloaded in every cell's store  ·  YCSB 20,000 records of 10 × 100B, hashed keys, each workload's distribution  ·  1s per cell (ycsb-load: each record once)",
		"ycsb-load       50,000              -",
		"ycsb-e         200,000  not supported",
		"ycsb-e/scan    190,000              -",
		"ycsb-e/insert p50    2.00µs              -",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("kv tables lack %q; got:\n%s", want, out)
		}
	}
	if strings.Contains(out, "key 9B value 256B") {
		t.Errorf("a YCSB-only table describes the seed's keys:\n%s", out)
	}
}
