package result

import (
	"path"
	"slices"
	"strings"
)

// A FamilyRecord declares, by name, what a family records in its runs:
// the settings (the keys of Run.Params), the phases its operations time
// (Run.Phases) and its extra figures (Run.Extra). Names are the ones the
// document carries, so a study file's params.NAME, extra.NAME and
// phase.NAME are checked against these when the file is read: a setting
// renamed here fails every study that selects by its old name, naming the
// file and line, instead of leaving its cells empty.
//
// The lists are kept honest from both sides by tests: internal/cli's
// checks that every setting a command records (its flags and what the
// family writes itself) is declared for its family and that each
// family's figure declarations and phases are the ones listed here; the
// recorded documents under testdata carry only declared names.
type FamilyRecord struct {
	Family   string
	Settings []string
	Phases   []string
	Extras   []string
}

// Families declares what each family records. A name may hold "*",
// standing for any text: an engine's knob (pebble.cache_size), a script
// or command number (script_1_ops).
func Families() []FamilyRecord {
	with := func(lists ...[]string) []string {
		var out []string
		for _, l := range lists {
			out = append(out, l...)
		}
		return out
	}
	// The load engine's settings, recorded by every family that runs on
	// it, and the capacity search's.
	loadSettings := []string{
		SettingDuration, SettingCount, SettingWarmup, SettingWorkers, SettingRate,
		"arrival", "max_in_flight", "grace", "repeat", "seed",
		"find_max_rate", "slo", "step_duration", "precision",
	}
	// The device counters a storage profile adds to a run, and the
	// external workers' counts (internal/extworker).
	deviceExtras := []string{"device_read_bytes", "device_read_ios", "device_seconds", "device_write_bytes", "device_write_ios"}
	workerExtras := []string{"worker_failures", "workers_started"}
	return []FamilyRecord{
		{Family: "kv", Settings: with(loadSettings, []string{
			"engines", "ops", "dir", "param", "storage_profile", "shape",
			SettingFsync, SettingFsyncSwitch, SettingPreloadedKeys, SettingKeys, SettingKeySize, SettingValueSize,
			"batch", "dist", SettingDistribution, SettingFieldCount, SettingFieldLength, SettingInsertOrder,
			"record_bytes", "request_distribution", "expected_new_keys",
			"*.*", // an engine's knob, engine.knob (--param)
		}), Extras: with(deviceExtras, []string{
			"del_rounds", "disk_bytes_end", "disk_bytes_start", "get_misses", "hottest_1pct_share", "io_write_bytes",
			"keys_end", "keys_s", "keys_start", "not_supported", "ns_per_key", "peak_rss_bytes",
			"slowest_interval_share", "space_amp", "stall_intervals", "user_write_bytes", "write_amp", "writes_synced",
		})},
		{Family: "pg", Settings: with(loadSettings, []string{
			SettingTransactionType, SettingScale, SettingQueryMode, SettingClients, SettingJobs, SettingDriver,
			SettingMaxTries, SettingTime, SettingTransactions, SettingFailuresDetailed, SettingLatencyLimit,
			"aggregate_interval", "builtin", "connect", "connect_timeout", "define", "dsn", "file", "fillfactor",
			"force", "foreign_keys", "index_tablespace", "init_steps", "initialize", "log", "no_vacuum",
			"partition_method", "partitions", "protocol", "quiet_init", "random_seed", "report_per_command",
			"sampling_rate", "select_only", "skip_some_updates", "storage_profile", "storage_server", "tablespace",
			"unlogged_tables", "vacuum_all", "progress_timestamp",
		}), Extras: with(deviceExtras, []string{
			"average_connection_time_ns", "command_*_count", "command_*_failures", "command_*_latency_ns_mean",
			"command_*_retries", "connect_ns_p99", "connections", "deadlock_failures", "initial_connection_time_ns",
			"late_ops", "reconnects", "retried_ops", "retries", "schedule_lag_ns_mean", "script_*_errors",
			"script_*_latency_ns_mean", "script_*_latency_ns_stddev", "script_*_ops", "skipped_ops",
		})},
		{Family: "ch", Settings: with(loadSettings, []string{
			// both commands: the server, the client paths and their workers
			"dsn", "client", "clients", "module", "compress", "connect_timeout", "create", "worker_cmd", "worker_timeout",
			// insert's
			SettingBatch, SettingBlocksPerInsert, "dump_format", "extra_columns", "rows", "schema", "table", "table_engine", "tcp_nodelay",
			// query's
			"arg", "database", "decode", "events_rows", "http_url", "matrix", "metrics_rows", "no_warmup",
			"pool_idle_timeout", "pool_lifetime", "pool_max_idle", "pool_max_open", "prepared", "preset", "protocol",
			"queries_file", "query", "query_weight", "select_rows", "sum_window", "users_rows",
		}), Phases: []string{"build", "send", "decode", "client"}, Extras: with(workerExtras, []string{
			// insert's
			"allocs_per_row", "build_s", "bytes_per_row", "client_cpu_us_per_row", "generator_rows_s",
			"rows_acknowledged", "rows_counted", "rows_uncertain", "rows_unverified", "send_s", "worker_start_ms",
			"workers_cpu_us_per_row",
			// query's
			"achieved_rate_ops_s", "conn_reuse_pct", "conn_setup_ns_mean", "conn_setup_ns_total", "conn_setup_share_pct",
			"conns_closed", "conns_opened", "decode_ns_per_row", "pool_wait_ns_total", "pool_waits", "rows_per_query",
		})},
		{Family: "null", Settings: with(loadSettings, []string{"concurrency", "delay", "stall", "stall_every"}),
			Extras: []string{"clock_cost_ns", "overhead_ns_per_op"}},
	}
}

// DeclaredSettings, DeclaredPhases and DeclaredExtras are the names some
// family declares, each once, in the order Families gives them.
func DeclaredSettings(fams []FamilyRecord) []string {
	return union(fams, func(f FamilyRecord) []string { return f.Settings })
}

// DeclaredPhases: see DeclaredSettings.
func DeclaredPhases(fams []FamilyRecord) []string {
	return union(fams, func(f FamilyRecord) []string { return f.Phases })
}

// DeclaredExtras: see DeclaredSettings.
func DeclaredExtras(fams []FamilyRecord) []string {
	return union(fams, func(f FamilyRecord) []string { return f.Extras })
}

func union(fams []FamilyRecord, of func(FamilyRecord) []string) []string {
	var out []string
	for _, f := range fams {
		for _, n := range of(f) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// Matches says whether name is one of declared, a "*" in a declared name
// standing for any text (path.Match's pattern, names having no "/").
func Matches(name string, declared []string) bool {
	for _, d := range declared {
		if ok, _ := path.Match(d, name); ok {
			return true
		}
	}
	return false
}

// familyNamed are the declared settings with a "_" that a family names
// itself rather than a flag setting them: shown as they are. internal/cli
// tests the list both ways against the commands' flags.
func familyNamed() []string {
	return []string{
		SettingFsyncSwitch, SettingPreloadedKeys, "record_bytes", "request_distribution", "expected_new_keys",
		SettingTransactionType, SettingQueryMode,
		"query_weight", // ch query's, each query's weight in a queries file
	}
}

// Label is how the reports head a column of setting name and name it
// beside its value: for a setting a flag sets, the flag's spelling
// (key-size for key_size), which the tables showed before settings were
// keyed by declared names and which the reader types; for the rest
// (preloaded_keys, an engine's knob pebble.cache_size, a name no family
// declares) the name itself.
func Label(name string) string {
	if strings.Contains(name, ".") || slices.Contains(familyNamed(), name) || !Matches(name, DeclaredSettings(Families())) {
		return name
	}
	return strings.ReplaceAll(name, "_", "-")
}
