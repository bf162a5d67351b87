package result

import "math"

// ServerStats is the server's own account of a run's measured operations,
// read from the server outside the measured window, so that a client
// latency can be split into the server's time and the rest.
type ServerStats struct {
	// Statements holds pg_stat_statements' deltas over the window for the
	// statements the run executed, most total time first.
	Statements []Statement `json:"statements,omitempty"`
	// Database holds pg_stat_database's deltas over the window for the
	// run's database: xact_commit, xact_rollback, blks_hit, blks_read,
	// temp_bytes, deadlocks.
	Database map[string]float64 `json:"database,omitempty"`
	// WaitEvents is the run's backends' sampled wait-event profile.
	WaitEvents *WaitEvents `json:"wait_events,omitempty"`
	// ServerNsPerOp is the server's execution time per transaction: the
	// statements' total execution time over the window divided by the
	// transactions dbmeter counted. PostgreSQL cannot tie its timing to a
	// transaction, so this is a mean, not a distribution.
	ServerNsPerOp float64 `json:"server_ns_per_op,omitempty"`

	// LatencyNs is the server's own duration of each measured operation
	// (ClickHouse: system.query_log's, joined to the operation by query
	// id), at ResolutionNs: 18.16 logs whole milliseconds, truncated.
	LatencyNs    *Phase `json:"latency_ns,omitempty"`
	ResolutionNs int64  `json:"resolution_ns,omitempty"`
	// ClientSideNs is, per operation joined, the client's service time
	// less the server's duration: network, queueing in the client, encode
	// and decode. ClientSideNegative counts the operations where the
	// server's duration was the longer (recorded as 0).
	ClientSideNs       *Phase `json:"client_side_ns,omitempty"`
	ClientSideNegative int64  `json:"client_side_negative,omitempty"`
	// NotLogged counts measured operations the server's log has no record
	// of; Exceptions, those it logged as failed.
	NotLogged  int64 `json:"not_logged,omitempty"`
	Exceptions int64 `json:"exceptions,omitempty"`
	// ReadRows, ReadBytes and MemoryBytes sum the logged operations'
	// read_rows, read_bytes and memory_usage; MemoryMaxBytes is the
	// largest memory_usage.
	ReadRows       int64 `json:"read_rows,omitempty"`
	ReadBytes      int64 `json:"read_bytes,omitempty"`
	MemoryBytes    int64 `json:"memory_bytes,omitempty"`
	MemoryMaxBytes int64 `json:"memory_max_bytes,omitempty"`
	// ProfileEvents sums chosen per-query ProfileEvents over the logged
	// operations, those the server has.
	ProfileEvents map[string]int64 `json:"profile_events,omitempty"`
	// Events holds system.events' deltas over the window: the whole
	// server's, other clients' queries included.
	Events map[string]int64 `json:"events,omitempty"`
	// Unavailable says, one line each, what could not be read and how to
	// enable it; the rest was measured as usual.
	Unavailable []string `json:"unavailable,omitempty"`
}

// Statement is one normalised statement's pg_stat_statements figures over
// the window.
type Statement struct {
	QueryID string `json:"queryid"`
	Query   string `json:"query"`
	Calls   int64  `json:"calls"`
	Rows    int64  `json:"rows"`
	// TotalNs, MeanNs and StddevNs are its execution time (not planning).
	TotalNs  float64 `json:"total_exec_ns"`
	MeanNs   float64 `json:"mean_exec_ns"`
	StddevNs float64 `json:"stddev_exec_ns"`
	// SumSqNs2 is the sum of the squared execution times, kept so that
	// shards merge their standard deviations exactly.
	SumSqNs2         float64 `json:"sum_sq_exec_ns2"`
	SharedBlksHit    int64   `json:"shared_blks_hit"`
	SharedBlksRead   int64   `json:"shared_blks_read"`
	SharedBlksWrite  int64   `json:"shared_blks_written"`
	WALBytes         int64   `json:"wal_bytes,omitempty"`
	BlkReadTimeNs    float64 `json:"blk_read_time_ns,omitempty"`
	BlkWriteTimeNs   float64 `json:"blk_write_time_ns,omitempty"`
	TempBlksWritten  int64   `json:"temp_blks_written,omitempty"`
	LocalBlksRead    int64   `json:"local_blks_read,omitempty"`
	LocalBlksWritten int64   `json:"local_blks_written,omitempty"`
}

// SetMoments computes MeanNs and StddevNs from Calls, TotalNs and SumSqNs2.
func (s *Statement) SetMoments() {
	if s.Calls <= 0 {
		return
	}
	n := float64(s.Calls)
	s.MeanNs = s.TotalNs / n
	s.StddevNs = math.Sqrt(max(s.SumSqNs2/n-s.MeanNs*s.MeanNs, 0))
}

// WaitEvents is a wait-event profile: what the run's backends were doing at
// each sample.
type WaitEvents struct {
	IntervalNs int64 `json:"interval_ns"`
	// Samples is the number of backend observations (backends × samples).
	Samples int64 `json:"samples"`
	// Events counts the observations per "type:event"; a backend running
	// with no wait event counts as "CPU".
	Events map[string]int64 `json:"events"`
	// Shares is Events divided by Samples: they sum to 1.
	Shares map[string]float64 `json:"shares"`
}

// SetShares computes Shares from Events and Samples.
func (w *WaitEvents) SetShares() {
	w.Shares = make(map[string]float64, len(w.Events))
	if w.Samples == 0 {
		return
	}
	for k, n := range w.Events {
		w.Shares[k] = float64(n) / float64(w.Samples)
	}
}
