package result

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Schema names the version of the document layout. v2 keys settings by
// the names the families declare (key_size); v1 keyed them by the flag
// that set them (key-size). Read takes both (see upgradeV1).
const Schema = "dbmeter/v2"

// SchemaV1 is the layout before settings were keyed by declared names.
const SchemaV1 = "dbmeter/v1"

// Document is one invocation of dbmeter: its environment and its runs.
type Document struct {
	Schema    string    `json:"schema"`
	Tool      Tool      `json:"tool"`
	StartedAt time.Time `json:"started_at"`
	Env       Env       `json:"env"`
	// Command is the argv with secrets masked.
	Command string `json:"command"`
	// Settings declares the invocation's settings by name: the keys of
	// its runs' Params and of Observed, each with its role (whether it
	// defines a run) and kind. Absent in documents written before it
	// existed, whose params are read by the roles of that time
	// (Document.Declared).
	Settings map[string]Setting `json:"settings,omitempty"`
	// Observed holds the settings that only observed the invocation
	// (output files, progress, the disk probe), kept apart from the runs'
	// Params, which say what each run measured.
	Observed map[string]string `json:"observed,omitempty"`
	// Interrupted is true when a signal cut the invocation short.
	Interrupted bool `json:"interrupted,omitempty"`
	// Empty names the variants that completed no operation, one line
	// each with why, as the invocation's exit status reports them: a
	// reader (study run) learns from the document alone that a failed
	// exit said only that. Absent when none was empty or the run was
	// interrupted.
	Empty []string `json:"empty,omitempty"`
	Runs  []Run    `json:"runs"`
	// Capacity holds the answers of --find-max-rate searches, one per
	// configuration searched.
	Capacity []Capacity `json:"capacity,omitempty"`
	// Machine is how busy the machine was during the invocation, and its
	// reference measurements; nil in documents from before it was kept.
	Machine *Machine `json:"machine,omitempty"`
}

// Capacity is the highest open-loop rate one configuration sustained under
// an objective, and the steps of the search that found it.
type Capacity struct {
	Family   string            `json:"family"`
	Target   string            `json:"target"`
	Workload string            `json:"workload"`
	Params   map[string]string `json:"params"`
	SLO      string            `json:"slo"`
	// LatencyLimitNs is the tightest latency bound of the objective (0 when
	// it bounds only errors), for drawing it.
	LatencyLimitNs int64 `json:"latency_limit_ns,omitempty"`
	// MaxRate is the highest offered rate whose step met the objective (and
	// its confirmation); 0 when no rate tried met it.
	MaxRate float64 `json:"max_rate"`
	// FirstFailingRate is the lowest rate tried that failed it; 0 when none
	// failed (the search was cut short).
	FirstFailingRate float64 `json:"first_failing_rate"`
	// Steps are the runs' step numbers, in the order they ran.
	Steps []int `json:"steps"`
	// Limit says what bounded the answer: "objective" (the target's
	// latency, errors or drops), "max-in-flight" (the operations dbmeter
	// may keep in flight), "client" (dbmeter itself was saturated), or
	// "none" (no rate met the objective).
	Limit string `json:"limit"`
	// ContradictedRates are the rates whose steps disagreed: a step
	// failed and its retry passed (a third decided).
	ContradictedRates []float64 `json:"contradicted_rates,omitempty"`
	Warnings          []string  `json:"warnings,omitempty"`
}

// Tool identifies the dbmeter build that wrote the document.
type Tool struct {
	Name string `json:"name"`
	// Version is the module version of a release build (v1.2.0); otherwise
	// the first 12 hex digits of the VCS revision, with "-dirty" when the
	// checkout had uncommitted changes; "devel" when the binary carries no
	// VCS stamp (go run, go test, -buildvcs=false, a linked git worktree).
	Version string `json:"version"`
	// Revision is the full commit the binary was built from, if stamped.
	Revision string `json:"revision,omitempty"`
	// RevisionTime is the commit's time (RFC 3339), if stamped.
	RevisionTime string `json:"revision_time,omitempty"`
	// Modified is true when the checkout had uncommitted changes.
	Modified bool `json:"modified,omitempty"`
	// Go is the toolchain that built the binary.
	Go string `json:"go"`
	// Tags are the build tags ("rocksdb"); empty when none.
	Tags []string `json:"tags"`
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
	// ExternalClients are the clients in other languages the runs drove,
	// as their workers' handshakes named them: the counterpart of Modules
	// for code that is not linked into dbmeter. Absent when every client
	// was a Go one.
	ExternalClients []ExternalEnv `json:"external_clients,omitempty"`
	Disk            Disk          `json:"disk"`
}

// ExternalEnv is one external client's stack as its worker's handshake
// named it.
type ExternalEnv struct {
	Language string `json:"language"`
	Runtime  string `json:"runtime"`
	Library  string `json:"library"`
}

// NoteExternal records the stack of run's external client in e, once
// however many runs drove it; a Go client's run adds nothing.
func (e *Env) NoteExternal(run *Run) {
	x := run.External
	if x == nil {
		return
	}
	n := ExternalEnv{Language: x.Language, Runtime: x.Runtime, Library: x.Library}
	if !slices.Contains(e.ExternalClients, n) {
		e.ExternalClients = append(e.ExternalClients, n)
	}
}

// Disk describes the filesystem that holds the data under test.
type Disk struct {
	Path string `json:"path"`
	FS   string `json:"fs"`
	// Device is the block device under the filesystem ("vda", "nvme0n1"),
	// Model its model string and Driver its kernel driver ("virtio_blk",
	// "nvme"), each where /sys exposes it.
	Device string `json:"device,omitempty"`
	Model  string `json:"model,omitempty"`
	Driver string `json:"driver,omitempty"`
	// Rotational is the kernel's flag for the device: a guess the driver
	// makes, often wrong for virtual and RAID devices. Fsync is what the
	// disk measurably does.
	Rotational bool `json:"rotational"`
	// Fsync is the durable-write probe; nil when skipped (--no-disk-probe).
	Fsync *FsyncProbe `json:"fsync,omitempty"`
	// Storage is the storage class the runs ran under; nil when none was
	// asked for.
	Storage *Storage `json:"storage,omitempty"`
}

// FsyncProbe is what one small durable write costs on the disk, measured
// the way pg_test_fsync does: the same block of a preallocated file
// overwritten and flushed with fdatasync, a fixed number of times.
type FsyncProbe struct {
	// Method says what one operation is, e.g. "write 8192 B + fdatasync".
	Method     string `json:"method"`
	WriteBytes int    `json:"write_bytes"`
	// Ops is how many operations were timed: the fixed count, or fewer if
	// the time budget ran out first.
	Ops   int   `json:"ops"`
	P50Ns int64 `json:"p50_ns"`
	P99Ns int64 `json:"p99_ns"`
	MinNs int64 `json:"min_ns"`
	MaxNs int64 `json:"max_ns"`
	// OpsPerS is Ops over the time they took together.
	OpsPerS float64 `json:"ops_s"`
	// Error says why the probe could not run (a read-only directory); the
	// figures are then zero.
	Error string `json:"error,omitempty"`
}

// Run is one target × workload × repetition.
type Run struct {
	Family   string `json:"family"`
	Target   string `json:"target"`
	Workload string `json:"workload"`
	// Params holds every setting that shaped the run, secrets masked:
	// what defines it, its extent and the selection lists, as
	// Document.Settings declares them. Settings that only observed the run
	// are in Document.Observed (in documents before it, here too).
	Params map[string]string `json:"params"`
	// Server is the server's version string, for client/server families.
	Server  string  `json:"server,omitempty"`
	Mode    string  `json:"mode"` // "closed" or "open"
	Workers int     `json:"workers"`
	Rate    float64 `json:"rate"` // requested ops/s; open loop only
	Repeat  int     `json:"repeat"`
	Seed    uint64  `json:"seed"`
	// Shard says which part of a test split across processes this run was
	// (--shard, --start-at); nil for an ordinary run.
	Shard *Shard `json:"shard,omitempty"`
	// Step numbers the runs of a capacity search (1, 2, …); 0 otherwise.
	Step int `json:"step,omitempty"`
	// Verdict says whether a search step met the objective, and if not why.
	Verdict *Verdict `json:"verdict,omitempty"`
	Stats
	// Phases holds the durations of parts of an operation that a family
	// times apart, such as "build" and "send" of an insert batch, over the
	// same measured operations as the latency.
	Phases map[string]Phase `json:"phases,omitempty"`
	// Extra holds family-specific figures, named with their unit, and
	// Figures declares each one's unit and merge rule (Run.SetExtra).
	Extra   map[string]float64 `json:"extra,omitempty"`
	Figures map[string]Figure  `json:"figures,omitempty"`
	// ServerStats is the server's own account of the measured operations,
	// where the family can read it.
	ServerStats *ServerStats `json:"server_stats,omitempty"`
	Warnings    []string     `json:"warnings,omitempty"`
	// ErrorSamples holds the first message of each error kind the run
	// counted, so a count of errors comes with what they said.
	ErrorSamples map[string]string `json:"error_samples,omitempty"`
	Interrupted  bool              `json:"interrupted,omitempty"`
	// External describes the worker processes of a client that runs
	// outside dbmeter (docs/worker-protocol.md); nil for Go clients.
	External *ExternalClient `json:"external_client,omitempty"`
}

// ExternalClient is a client in another language, run as worker processes
// under dbmeter's load model: what it is, and what the protocol between
// dbmeter and it costs. Its own timing of each operation is the run's
// phase "client".
type ExternalClient struct {
	// Command is the worker's command line, secrets masked.
	Command  string `json:"command"`
	Language string `json:"language"`
	Runtime  string `json:"runtime"`
	Library  string `json:"library"`
	// RTT is the round trip of an empty exchange with the run's workers,
	// timed by dbmeter before the measured window: the protocol's own
	// share of every latency.
	RTT RTT `json:"rtt_ns"`
}

// RTT summarises round trips in nanoseconds.
type RTT struct {
	P50 int64 `json:"p50"`
	P99 int64 `json:"p99"`
	// N is how many exchanges were timed.
	N int `json:"n"`
}

// Shard is a run's place in a test split across processes.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
	// StartAt is the common start (RFC 3339); StartOffsetNs how late this
	// shard really started after it.
	StartAt       string `json:"start_at,omitempty"`
	StartOffsetNs int64  `json:"start_offset_ns"`
}

// Verdict is a capacity search step's outcome against the objective.
type Verdict struct {
	Pass   bool   `json:"pass"`
	Reason string `json:"reason,omitempty"` // why it failed: the first objective missed
	// Confirm marks the confirmation steps at the answer.
	Confirm bool `json:"confirm,omitempty"`
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
	// Lag is how late dbmeter started each operation after its intended
	// start (open loop only): its own scheduling delay, as pgbench reports.
	Lag Latency `json:"lag_ns"`
	// LatencyHDR is the latency histogram, HdrHistogram V2 compressed and
	// base64 encoded, so reports can draw percentile curves and compare and
	// merge can add histograms exactly. ServiceHDR and LagHDR are the same
	// for service time and lag (open loop only).
	LatencyHDR string     `json:"latency_hdr,omitempty"`
	ServiceHDR string     `json:"service_hdr,omitempty"`
	LagHDR     string     `json:"lag_hdr,omitempty"`
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

// Phase summarises one named part of the measured operations. Count is the
// operations that had the phase: the run's ops for a phase every operation
// has.
type Phase struct {
	Count int64 `json:"count"`
	Latency
	TotalNs int64  `json:"total_ns"`
	HDR     string `json:"hdr,omitempty"`
}

// PhaseOf summarises h, whose values add up to totalNs.
func PhaseOf(h *hdrhistogram.Histogram, totalNs int64) Phase {
	p := Phase{Count: h.TotalCount(), Latency: LatencyOf(h), TotalNs: totalNs}
	if p.Count > 0 {
		p.HDR, _ = EncodeHDR(h) // only fails on a nil histogram
	}
	return p
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
	// WorkersCPUS is the CPU (user and system) of the processes dbmeter
	// started, over the same window: an external client's workers, whose
	// CPU is the client's beside dbmeter's own (CPUS). Zero for Go clients.
	WorkersCPUS       float64 `json:"workers_cpu_s,omitempty"`
	WorkersCPUNsPerOp float64 `json:"workers_cpu_ns_per_op,omitempty"`
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

// Read decodes a document, rejecting other schemas. A v1 document is
// read as v2: its settings renamed to their declared names.
func Read(r io.Reader) (*Document, error) {
	var doc Document
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, fmt.Errorf("decode result document: %w", err)
	}
	if err := Upgrade(&doc); err != nil {
		return nil, err
	}
	return &doc, nil
}

// ReadFile reads the document at path. A file that cannot be read or is
// not a result document is the user's mistake: a usage error.
func ReadFile(path string) (*Document, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := Read(f)
	if err != nil {
		return nil, usage.Wrap(fmt.Errorf("%s: %w", path, err))
	}
	return doc, nil
}

// OpenInput opens a file the user named as input; one that cannot be
// opened is a usage error, in one line.
func OpenInput(path string) (*os.File, error) {
	f, err := os.Open(path)
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, usage.Errorf("cannot read %s: %v", pe.Path, pe.Err)
	}
	return f, err
}
