package result

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Schema names the version of the document layout.
const Schema = "dbmeter/v1"

// Document is one invocation of dbmeter: its environment and its runs.
type Document struct {
	Schema    string    `json:"schema"`
	Tool      Tool      `json:"tool"`
	StartedAt time.Time `json:"started_at"`
	Env       Env       `json:"env"`
	// Command is the argv with secrets masked.
	Command string `json:"command"`
	// Interrupted is true when a signal cut the invocation short.
	Interrupted bool  `json:"interrupted,omitempty"`
	Runs        []Run `json:"runs"`
}

// Tool identifies the dbmeter build that wrote the document.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Env records where the numbers were measured.
type Env struct {
	CPUModel   string            `json:"cpu_model"`
	CPUs       int               `json:"cpus"`
	GOMAXPROCS int               `json:"gomaxprocs"`
	MemBytes   int64             `json:"mem_bytes"`
	OS         string            `json:"os"`
	Kernel     string            `json:"kernel"`
	Go         string            `json:"go"`
	Modules    map[string]string `json:"modules"`
	Disk       Disk              `json:"disk"`
}

// Disk describes the filesystem that holds the data under test.
type Disk struct {
	Path       string `json:"path"`
	FS         string `json:"fs"`
	Rotational bool   `json:"rotational"`
}

// Run is one target × workload × repetition.
type Run struct {
	Family   string `json:"family"`
	Target   string `json:"target"`
	Workload string `json:"workload"`
	// Params holds every setting that shaped the run, secrets masked.
	Params map[string]string `json:"params"`
	// Server is the server's version string, for client/server families.
	Server  string  `json:"server,omitempty"`
	Mode    string  `json:"mode"` // "closed" or "open"
	Workers int     `json:"workers"`
	Rate    float64 `json:"rate"` // requested ops/s; open loop only
	Repeat  int     `json:"repeat"`
	Seed    uint64  `json:"seed"`
	Stats
	// Phases holds latencies of parts of an operation that a family times
	// apart, such as "build" and "send" of an insert batch.
	Phases map[string]Latency `json:"phases,omitempty"`
	// Extra holds family-specific figures, named with their unit.
	Extra       map[string]float64 `json:"extra,omitempty"`
	Warnings    []string           `json:"warnings,omitempty"`
	Interrupted bool               `json:"interrupted,omitempty"`
}

// Stats are the measured figures of one operation type, or of all of them.
type Stats struct {
	DurationS  float64          `json:"duration_s"`
	Ops        int64            `json:"ops"`
	Errors     int64            `json:"errors"`
	ErrorKinds map[string]int64 `json:"error_kinds"`
	Dropped    int64            `json:"dropped"`
	OpsPerS    float64          `json:"throughput_ops_s"`
	RowsPerS   float64          `json:"rows_s"`
	BytesPerS  float64          `json:"bytes_s"`
	Rows       int64            `json:"rows"`
	Bytes      int64            `json:"bytes"`
	Latency    Latency          `json:"latency_ns"`
	Service    Latency          `json:"service_ns"`
	// LatencyHDR is the latency histogram, HdrHistogram V2 compressed and
	// base64 encoded, so reports can draw percentile curves and compare can
	// merge repetitions.
	LatencyHDR string     `json:"latency_hdr,omitempty"`
	Intervals  []Interval `json:"intervals"`
	Client     Client     `json:"client"`
}

// Latency summarises a histogram in nanoseconds.
type Latency struct {
	Min    int64   `json:"min"`
	Mean   float64 `json:"mean"`
	Stddev float64 `json:"stddev"`
	P50    int64   `json:"p50"`
	P90    int64   `json:"p90"`
	P99    int64   `json:"p99"`
	P999   int64   `json:"p999"`
	Max    int64   `json:"max"`
}

// Interval is one progress period. TS is its end, in seconds since the
// measured window began.
type Interval struct {
	TS      float64 `json:"t_s"`
	Ops     int64   `json:"ops"`
	Errors  int64   `json:"errors"`
	Dropped int64   `json:"dropped"`
	P50     int64   `json:"p50_ns"`
	P99     int64   `json:"p99_ns"`
}

// Client is what the dbmeter process itself spent during the measured window.
type Client struct {
	CPUS          float64 `json:"cpu_s"`
	Allocs        int64   `json:"allocs"`
	AllocBytes    int64   `json:"alloc_bytes"`
	CPUNsPerOp    float64 `json:"cpu_ns_per_op"`
	AllocsPerOp   float64 `json:"allocs_per_op"`
	AllocBytesPer float64 `json:"alloc_bytes_per_op"`
	// CPUUtil is CPU seconds over the CPU seconds available (wall time ×
	// usable cores).
	CPUUtil float64 `json:"cpu_util"`
}

// LatencyOf summarises h. An empty histogram gives zeros.
func LatencyOf(h *hdrhistogram.Histogram) Latency {
	if h == nil || h.TotalCount() == 0 {
		return Latency{}
	}
	return Latency{
		Min:    h.Min(),
		Mean:   h.Mean(),
		Stddev: h.StdDev(),
		P50:    h.ValueAtQuantile(50),
		P90:    h.ValueAtQuantile(90),
		P99:    h.ValueAtQuantile(99),
		P999:   h.ValueAtQuantile(99.9),
		Max:    h.Max(),
	}
}

// EncodeHDR returns h in the form LatencyHDR holds.
func EncodeHDR(h *hdrhistogram.Histogram) (string, error) {
	b, err := h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("encode histogram: %w", err)
	}
	return string(b), nil
}

// DecodeHDR reverses EncodeHDR.
func DecodeHDR(s string) (*hdrhistogram.Histogram, error) {
	if err := CheckHDR(s); err != nil {
		return nil, err
	}
	h, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("decode histogram: %w", err)
	}
	return h, nil
}

// Write encodes doc as indented JSON.
func Write(w io.Writer, doc *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// Read decodes a document, rejecting other schemas.
func Read(r io.Reader) (*Document, error) {
	var doc Document
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode result document: %w", err)
	}
	if doc.Schema != Schema {
		return nil, fmt.Errorf("result document has schema %q, want %q", doc.Schema, Schema)
	}
	return &doc, nil
}

// ReadFile reads the document at path.
func ReadFile(path string) (*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}
