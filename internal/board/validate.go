package board

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/study"
)

// Problem is one way a document breaks the result schema
// (docs/result-schema.md), as one line: where, and what.
type Problem struct {
	Where string
	What  string
}

func (p Problem) String() string {
	if p.Where == "" {
		return p.What
	}
	return p.Where + ": " + p.What
}

// ValidateStudy decodes a study's result document and checks it against
// the schema: its shape (every field of the type the schema gives), then
// values no run can have (negative counts, percentiles out of order, a
// machine with no CPU). It returns the document when it decoded, and
// every problem found.
func ValidateStudy(data []byte) (*study.Document, []Problem) {
	var doc study.Document
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return nil, []Problem{{What: "wrong shape: " + shapeError(err)}}
	}
	var ps []Problem
	add := func(where, format string, a ...any) {
		ps = append(ps, Problem{Where: where, What: fmt.Sprintf(format, a...)})
	}
	if doc.Schema != study.Schema {
		add("schema", "%q, want %q (a study's result document, as study run writes)", doc.Schema, study.Schema)
		return &doc, ps
	}
	if doc.Study == "" {
		add("study", "empty: the document names no study")
	}
	if b, err := hex.DecodeString(doc.SHA256); err != nil || len(b) != 32 {
		add("sha256", "%q is not a SHA-256", doc.SHA256)
	}
	if doc.StartedAt.IsZero() {
		add("started_at", "missing")
	}
	if len(doc.Steps) == 0 {
		add("steps", "none: a study run has at least one step")
	}
	for i, st := range doc.Steps {
		where := fmt.Sprintf("steps[%d] (%s)", i, st.ID)
		if st.ID == "" {
			add(where, "no id")
		}
		if st.WallS < 0 {
			add(where, "wall_s %g is negative", st.WallS)
		}
		if st.Result != nil {
			for _, p := range validateResult(st.Result) {
				add(where+".result"+prefixed(p.Where), "%s", p.What)
			}
		}
	}
	return &doc, ps
}

func prefixed(where string) string {
	if where == "" {
		return ""
	}
	return "." + where
}

// shapeError says where a document's JSON does not fit the schema.
func shapeError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s is a JSON %s, the schema has %s there", te.Field, te.Value, te.Type)
	}
	return err.Error()
}

// validateResult checks one result document's values, bringing a
// dbmeter/v1 one to the current schema (result.Upgrade) first.
func validateResult(d *result.Document) []Problem {
	var ps []Problem
	add := func(where, format string, a ...any) {
		ps = append(ps, Problem{Where: where, What: fmt.Sprintf(format, a...)})
	}
	if err := result.Upgrade(d); err != nil {
		add("schema", "%v", err)
		return ps
	}
	if d.Env.CPUs < 1 {
		add("env.cpus", "%d: a machine has at least one CPU", d.Env.CPUs)
	}
	if d.Env.MemBytes < 0 {
		add("env.mem_bytes", "%d is negative", d.Env.MemBytes)
	}
	if f := d.Env.Disk.Fsync; f != nil && (f.P50Ns < 0 || f.OpsPerS < 0 || (f.Error == "" && f.P50Ns > f.MaxNs)) {
		add("env.disk.fsync", "impossible figures (p50 %d ns, max %d ns, %g ops/s)", f.P50Ns, f.MaxNs, f.OpsPerS)
	}
	if d.Machine != nil && d.Machine.Reference != nil {
		for _, pt := range d.Machine.Reference.Points {
			for _, p := range pt.Probes {
				if p.MedianNs <= 0 || p.Spread < 0 {
					add("machine.reference", "probe %s at %s: median %g ns, spread %g: a probe takes time", p.Name, pt.At, p.MedianNs, p.Spread)
				}
			}
		}
	}
	for i := range d.Runs {
		for _, what := range runProblems(&d.Runs[i]) {
			add(fmt.Sprintf("runs[%d] (%s/%s)", i, d.Runs[i].Target, d.Runs[i].Workload), "%s", what)
		}
	}
	return ps
}

// runProblems are the values of one run that no measurement gives.
func runProblems(r *result.Run) []string {
	var out []string
	for _, c := range []struct {
		name string
		v    float64
	}{{"duration_s", r.DurationS}, {"ops", float64(r.Ops)}, {"errors", float64(r.Errors)}, {"dropped", float64(r.Dropped)},
		{"throughput_ops_s", r.OpsPerS}, {"rows_s", r.RowsPerS}, {"bytes_s", r.BytesPerS}, {"workers", float64(r.Workers)}, {"rate", r.Rate}} {
		if c.v < 0 {
			out = append(out, fmt.Sprintf("%s %g is negative", c.name, c.v))
		}
	}
	if r.Mode != "closed" && r.Mode != "open" {
		out = append(out, fmt.Sprintf("mode %q, want closed or open", r.Mode))
	}
	if r.Ops > 0 && r.DurationS == 0 {
		out = append(out, fmt.Sprintf("%d operations in a window of 0 s", r.Ops))
	}
	if r.DurationS > 0 && r.OpsPerS > 0 && r.Ops == 0 {
		out = append(out, fmt.Sprintf("throughput %g/s from no operation", r.OpsPerS))
	}
	l := r.Latency
	if r.Ops > 0 && !(l.Min <= l.P50 && l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.P999 && l.P999 <= l.Max) {
		out = append(out, fmt.Sprintf("latency_ns out of order (min %d, p50 %d, p90 %d, p99 %d, p999 %d, max %d)", l.Min, l.P50, l.P90, l.P99, l.P999, l.Max))
	}
	if l.Min < 0 || l.Mean < 0 || l.Stddev < 0 {
		out = append(out, "latency_ns below zero")
	}
	return out
}
