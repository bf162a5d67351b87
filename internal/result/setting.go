package result

import (
	"maps"
	"strconv"
	"time"
)

// A Role says what a setting of an invocation is to its runs, and so
// whether two runs that differ in it measured different things. The CLI
// declares each setting's role once, where it binds the flag, and records
// the declarations in the document (Document.Settings); reports, compare
// and merge decide by the role, never by a setting's name.
type Role string

// The roles. A setting without a declaration defines its run: the safe
// side, since two runs it wrongly keeps apart are shown apart, while two it
// wrongly matches would be compared as one test.
const (
	// Defines marks a setting of what was measured (workers, rate, value
	// size, query mode): runs that differ in it are different tests.
	Defines Role = "defines"
	// Extent marks how long, how often and with which random stream a test
	// ran (duration, count, warm-up, repetitions, seed, grace): compare
	// and the reports match runs across it; the shards of one test share
	// it.
	Extent Role = "extent"
	// Selects marks a list that chooses which variants run (engines,
	// operations, drivers, clients, servers). Each run names its own
	// variant in its target, workload or params, so the list says nothing
	// about the run: a run of engine A is the same test whether B ran
	// beside it or not.
	Selects Role = "selects"
	// Observes marks how a run was watched and where its results went
	// (output files, progress, metrics, the disk probe, profiling,
	// sharding): it never changes what a run is. Its values are recorded
	// in Document.Observed, not in Run.Params.
	Observes Role = "observes"
)

// A Setting declares one setting of an invocation: its role, and the kind
// of its value.
type Setting struct {
	Role Role `json:"role"`
	// Kind is the value's type: "duration" (Go syntax, 1.5s), "int",
	// "float", "bool", "string", or "list" (comma-separated).
	Kind string `json:"kind,omitempty"`
}

// legacySettings declares the settings of documents written before
// Document.Settings existed (dbmeter up to 52d3a57), which recorded every
// flag in Run.Params: the union of what compare, the reports and merge
// then left out of a run's identity, plus the selection lists. It is
// frozen: those documents never change. New settings are declared by the
// CLI in the document itself.
func legacySettings() map[string]Setting {
	obs := func(kind string) Setting { return Setting{Role: Observes, Kind: kind} }
	ext := func(kind string) Setting { return Setting{Role: Extent, Kind: kind} }
	sel := Setting{Role: Selects, Kind: "list"}
	return map[string]Setting{
		"json": obs("string"), "html": obs("string"), "md": obs("string"), "csv": obs("string"),
		"hdr_log": obs("string"), "metrics_addr": obs("string"), "cpuprofile": obs("string"),
		"quiet": obs("bool"), "no_disk_probe": obs("bool"), "help": obs("bool"),
		"progress": obs("duration"), "shard": obs("string"), "start_at": obs("string"),
		"seed": ext("int"), "repeat": ext("int"), "grace": ext("duration"), "duration": ext("duration"),
		"count": ext("int"), "warmup": ext("duration"),
		"engines": sel, "ops": sel, "driver": sel, "clients": sel,
	}
}

// Declared returns the declaration of setting name: the document's own,
// or for a document older than declarations the legacy one. A setting
// declared nowhere defines its run.
func (d *Document) Declared(name string) Setting {
	if d != nil && d.Settings != nil {
		if s, ok := d.Settings[name]; ok {
			return s
		}
		return Setting{Role: Defines}
	}
	if s, ok := legacySettings()[name]; ok {
		return s
	}
	return Setting{Role: Defines}
}

// Role is the role of setting name in d (see Declared).
func (d *Document) Role(name string) Role { return d.Declared(name).Role }

// Defining returns the params of r (a run of d) that define what it
// measured: the one rule by which compare matches runs and the reports
// tell runs apart.
func (d *Document) Defining(r *Run) map[string]string {
	out := make(map[string]string, len(r.Params))
	for k, v := range r.Params {
		if d.Role(k) == Defines {
			out[k] = v
		}
	}
	return out
}

// Unobserved returns the params of r (a run of d) without the ones that
// only observed it: what every shard of one test has in common, by which
// merge matches their runs.
func (d *Document) Unobserved(r *Run) map[string]string {
	out := maps.Clone(r.Params)
	maps.DeleteFunc(out, func(k, _ string) bool { return d.Role(k) == Observes })
	return out
}

// Setting returns the value of setting name for run r of d: its param, or
// the observation the document records apart (a document older than
// Observed kept those among the params too).
func (d *Document) Setting(r *Run, name string) (string, bool) {
	if v, ok := r.Params[name]; ok {
		return v, true
	}
	v, ok := d.Observed[name]
	return v, ok
}

// Duration returns the setting name of run r of d as a duration; false
// when it is absent or not one.
func (d *Document) Duration(r *Run, name string) (time.Duration, bool) {
	v, ok := d.Setting(r, name)
	if !ok {
		return 0, false
	}
	t, err := time.ParseDuration(v)
	return t, err == nil
}

// ProgressInterval is the interval between the progress snapshots of r (a
// run of d), as the invocation asked for it; false when it recorded none.
func (d *Document) ProgressInterval(r *Run) (time.Duration, bool) {
	t, ok := d.Duration(r, "progress")
	return t, ok && t > 0
}

// Names of the settings the reports read from a run, spelled once here
// beside their declarations and typed accessors, so that no reader spells
// one. Each is the key its family records it under in Run.Params: for most,
// the name of the flag that set it (the CLI records flags by name); the
// few a family names itself (kv's preloaded keys, pg's query mode) it writes
// through these constants too. Documents keep these keys, so older ones
// still read. Every key a family records, these and the rest, is declared
// in Families (declared.go), which study files are checked against.
const (
	// The load engine's, recorded by every family that runs on it.
	SettingDuration = "duration"
	SettingCount    = "count"
	SettingWarmup   = "warmup"
	SettingWorkers  = "workers"
	SettingRate     = "rate"

	// kv's: the fsync mode and how the engine switched it, the store's
	// preload, and the sizes of keys, values and YCSB records.
	SettingFsync         = "fsync"
	SettingFsyncSwitch   = "fsync_switch"
	SettingPreloadedKeys = "preloaded_keys"
	SettingKeys          = "keys"
	SettingKeySize       = "key_size"
	SettingValueSize     = "value_size"
	SettingDistribution  = "distribution"
	SettingFieldCount    = "field_count"
	SettingFieldLength   = "field_length"
	SettingInsertOrder   = "insert_order"

	// pg's, in pgbench's terms.
	SettingTransactionType  = "transaction_type"
	SettingScale            = "scale"
	SettingQueryMode        = "query_mode"
	SettingClients          = "client"
	SettingJobs             = "jobs"
	SettingDriver           = "driver"
	SettingMaxTries         = "max_tries"
	SettingTime             = "time"
	SettingTransactions     = "transactions"
	SettingFailuresDetailed = "failures_detailed"
	// SettingLatencyLimit is pgbench's -L, in milliseconds.
	SettingLatencyLimit = "latency_limit"

	// ch insert's.
	SettingBatch           = "batch"
	SettingBlocksPerInsert = "blocks_per_insert"
)

// The typed accessors below read a run's own settings (its params) for the
// reports, so that parsing a value lives with the document, not with each
// reader. A setting the run does not have reads as absent (false), never as
// a zero that looks measured.

// Setting returns r's setting name as recorded, and whether r has it.
func (r *Run) Setting(name string) (string, bool) {
	v, ok := r.Params[name]
	return v, ok
}

// IntSetting returns r's setting name as an integer; false when r has none
// or it is not one.
func (r *Run) IntSetting(name string) (int64, bool) {
	n, err := strconv.ParseInt(r.Params[name], 10, 64)
	return n, err == nil
}

// BoolSetting says whether r's setting name is on ("true"); absent or any
// other value is off.
func (r *Run) BoolSetting(name string) bool {
	on, _ := strconv.ParseBool(r.Params[name])
	return on
}

// FloatSetting returns r's setting name as a number; false when r has
// none or it is not one.
func (r *Run) FloatSetting(name string) (float64, bool) {
	f, err := strconv.ParseFloat(r.Params[name], 64)
	return f, err == nil
}

// DurationSetting returns r's setting name as a duration; false when r has
// none or it is not one.
func (r *Run) DurationSetting(name string) (time.Duration, bool) {
	d, err := time.ParseDuration(r.Params[name])
	return d, err == nil
}

// Window is how long a run of the load engine was measured: its extent
// settings, typed.
type Window struct {
	// Duration is the measured window asked for; 0 when absent.
	Duration time.Duration
	// Count is the operations asked for instead of a duration; 0 when the
	// run was timed.
	Count int64
	// Warmup is how long the run went before it was measured.
	Warmup time.Duration
}

// Window returns the extent of r as the load engine's settings recorded
// it (duration, count, warmup).
func (r *Run) Window() Window {
	var w Window
	w.Duration, _ = r.DurationSetting(SettingDuration)
	w.Count, _ = r.IntSetting(SettingCount)
	w.Warmup, _ = r.DurationSetting(SettingWarmup)
	return w
}
