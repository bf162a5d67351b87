package merge

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// This file is the only place that knows how the fields merge needs sit in
// the result document. A merged document is an ordinary result document
// plus one list only merge writes:
//
//	shards[]  {index, file, command, started_at, start_offset_ns, env}: one
//	          entry per shard, so every shard's environment is kept

// document is a result document with the list above.
type document struct {
	result.Document
	Runs []run `json:"runs"`
	// Shards lists the shards a merged document was made from.
	Shards []ShardSource `json:"shards,omitempty"`
}

// run is a result.Run; merge works on pointers to them.
type run struct {
	result.Run
}

// Phase is the part of an operation a family times apart, with its
// histogram so shards can be merged.
type Phase = result.Phase

// Shard is a run's place in a sharded test.
type Shard = result.Shard

// shardStart is when a shard's run began: the common --start-at plus how
// late the shard was, or, without --start-at, the shard's own start.
func shardStart(r *run, started time.Time) time.Time {
	t, err := time.Parse(time.RFC3339Nano, r.Shard.StartAt)
	if err != nil {
		t = started
	}
	return t.Add(time.Duration(r.Shard.StartOffsetNs))
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

// decode reads a document with the new fields, rejecting other schemas
// and bringing an older one to the current as result.Read does: shards of
// either version merge under one set of names.
func decode(r io.Reader) (*document, error) {
	var doc document
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode result document: %w", err)
	}
	v1 := doc.Schema == result.SchemaV1
	if err := result.Upgrade(&doc.Document); err != nil {
		return nil, err
	}
	for i := range doc.Runs {
		if v1 { // the runs are doc's own, which result.Upgrade does not see
			doc.Runs[i].Params = result.V1Params(doc.Runs[i].Params)
		}
	}
	return &doc, nil
}

// encode writes doc as result.Write does.
func encode(w io.Writer, doc *document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// plain is doc as a result.Document, for the reporters.
func plain(doc *document) *result.Document {
	out := doc.Document
	out.Runs = make([]result.Run, len(doc.Runs))
	for i, r := range doc.Runs {
		out.Runs[i] = r.Run
	}
	return &out
}

// readFile decodes the document at path.
func readFile(path string) (*document, error) {
	f, err := result.OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decode(f)
}
