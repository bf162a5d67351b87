package merge

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// This file is the only place that knows how the fields merge needs sit in
// the result document. The fields marked "new" are being added to
// internal/result by the scale-out change (issue 14); until then they are
// declared here, on types that embed result's own, so encoding/json reads
// and writes them beside result's fields (an outer field wins over an
// embedded one of the same JSON name, which is how "phases" is overridden).
//
// To reconcile with the new result types: delete each "new" field below
// whose twin result.Run or result.Document gains under the same Go name, and
// the rest of the package compiles unchanged. JSON names:
//
//	runs[].service_hdr      string   HdrHistogram V2 compressed, base64 (result.EncodeHDR)
//	runs[].lag_hdr          string   same, the schedule lag of open-loop runs
//	runs[].lag_ns           Latency  summary of lag_hdr
//	runs[].phases.NAME      {count, min, mean, stddev, p50, p90, p99, p999, max, total_ns, hdr}
//	runs[].shard            {index, count, start_at (RFC 3339), start_offset_ns}; omitted unsharded
//	shards[]                {index, file, command, started_at, start_offset_ns, env}: written by
//	                        merge only, one entry per shard, so every shard's environment is kept

// document is a result document with the fields above.
type document struct {
	result.Document
	Runs []run `json:"runs"`
	// Shards lists the shards a merged document was made from (new).
	Shards []ShardSource `json:"shards,omitempty"`
}

// run is a result.Run with the fields above.
type run struct {
	result.Run
	ServiceHDR string           `json:"service_hdr,omitempty"` // new
	LagHDR     string           `json:"lag_hdr,omitempty"`     // new
	Lag        *result.Latency  `json:"lag_ns,omitempty"`      // new
	Phases     map[string]Phase `json:"phases,omitempty"`      // new: replaces map[string]Latency
	Shard      *Shard           `json:"shard,omitempty"`       // new
}

// Phase is the latency of one part of an operation that a family times
// apart, with its histogram so shards can be merged.
type Phase struct {
	Count int64 `json:"count"`
	result.Latency
	TotalNs int64  `json:"total_ns"`
	HDR     string `json:"hdr,omitempty"`
}

// Shard says which part of a sharded benchmark (--shard I/N) a run is.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
	// StartAt is the agreed start of every shard's measured window.
	StartAt time.Time `json:"start_at"`
	// StartOffsetNs is how late this shard really started after StartAt.
	StartOffsetNs int64 `json:"start_offset_ns"`
}

// ShardSource records one shard a merged document was made from.
type ShardSource struct {
	Index         int        `json:"index"`
	File          string     `json:"file"`
	Command       string     `json:"command"`
	StartedAt     time.Time  `json:"started_at"`
	StartOffsetNs int64      `json:"start_offset_ns"`
	Env           result.Env `json:"env"`
}

// decode reads a document with the new fields, rejecting other schemas as
// result.Read does.
func decode(r io.Reader) (*document, error) {
	var doc document
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode result document: %w", err)
	}
	if doc.Schema != result.Schema {
		return nil, fmt.Errorf("result document has schema %q, want %q", doc.Schema, result.Schema)
	}
	return &doc, nil
}

// encode writes doc as result.Write does.
func encode(w io.Writer, doc *document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// plain is doc as today's result.Document, for the reporters: the new
// fields dropped, phases reduced to their summaries.
func plain(doc *document) *result.Document {
	out := doc.Document
	out.Runs = make([]result.Run, len(doc.Runs))
	for i, r := range doc.Runs {
		out.Runs[i] = r.Run
		if len(r.Phases) > 0 {
			out.Runs[i].Phases = make(map[string]result.Phase, len(r.Phases))
			for name, p := range r.Phases {
				out.Runs[i].Phases[name] = result.Phase(p)
			}
		}
	}
	return &out
}

// readFile decodes the document at path.
func readFile(path string) (*document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decode(f)
}
