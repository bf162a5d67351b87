package merge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Shards written before settings were keyed by declared names (dbmeter/v1,
// flag spellings) merge with shards written after: the v1 shard's
// settings read under their declared names, so the runs match by their
// params, the observing flag (--hdr-log, declared so under either name)
// is left out of the command compared, and the merged document is v2 with
// one name per setting. Runs match by their params across the versions,
// and tell apart a setting that differs.
func TestMergeV1AndV2Shards(t *testing.T) {
	t.Parallel()
	vs := values(5, 200)
	shard := func(i int, v1 bool, inFlight string) *document {
		hdr, inFlightKey, schema := "hdr_log", "max_in_flight", result.Schema
		if v1 {
			hdr, inFlightKey, schema = "hdr-log", "max-in-flight", result.SchemaV1
		}
		d := shardSpec{index: i, count: 2, latency: vs[i*100 : (i+1)*100],
			command: fmt.Sprintf("dbmeter null --duration 10s --workers 4 --shard %d/2 --hdr-log s%d.hlog --json s%d.json", i, i, i)}.build()
		d.Schema = schema
		d.Settings = map[string]result.Setting{
			hdr:         {Role: result.Observes, Kind: "string"},
			"shard":     {Role: result.Observes, Kind: "string"},
			"json":      {Role: result.Observes, Kind: "string"},
			"seed":      {Role: result.Extent, Kind: "int"},
			inFlightKey: {Role: result.Defines, Kind: "int"},
			"duration":  {Role: result.Extent, Kind: "duration"},
			"workers":   {Role: result.Defines, Kind: "int"},
		}
		d.Observed = map[string]string{hdr: fmt.Sprintf("s%d.hlog", i)}
		d.Runs[0].Params[inFlightKey] = inFlight
		d.Runs[0].Params["seed"] = "1" // one test's shards, matched by their params
		return d
	}
	m, err := Merge(context.Background(), inputs(t, shard(0, true, "1000"), shard(1, false, "1000")))
	if err != nil {
		t.Fatal(err)
	}
	if m.doc.Schema != result.Schema {
		t.Errorf("merged schema %q, want %q", m.doc.Schema, result.Schema)
	}
	r := m.doc.Runs[0]
	if r.Ops != 200 || r.Params["max_in_flight"] != "1000" {
		t.Errorf("merged run: %d ops, params %v; want 200 ops and max_in_flight 1000", r.Ops, r.Params)
	}
	for k := range r.Params {
		if strings.Contains(k, "-") {
			t.Errorf("merged run keeps v1 key %q", k)
		}
	}
	for _, tt := range []struct {
		inFlight string
		same     bool
	}{{"1000", true}, {"2000", false}} {
		ins := inputs(t, shard(0, true, "1000"), shard(1, false, tt.inFlight))
		k0, k1 := runKey(ins[0].doc, &ins[0].doc.Runs[0]), runKey(ins[1].doc, &ins[1].doc.Runs[0])
		if (k0 == k1) != tt.same {
			t.Errorf("v1 shard with max-in-flight 1000, v2 with max_in_flight %s: run keys %q and %q, same %v; want %v", tt.inFlight, k0, k1, k0 == k1, tt.same)
		}
	}
}
