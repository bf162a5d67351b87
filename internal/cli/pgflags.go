package cli

import (
	"fmt"
	"strconv"
	"time"
)

// pgFields names the flag (long name) that sets each field of pg.Command:
// the family names its fields in messages ({Clients}) and asks which were
// given by field, and only here are they spelled as the user typed them.
func pgFields() map[string]string {
	return map[string]string{
		"Clients": "client", "Jobs": "jobs", "ClientsList": "client", "JobsList": "jobs", "Repeat": "repeat", "Seconds": "time", "PerClient": "transactions", "Progress": "progress",
		"Rate": "rate", "LatencyLimit": "latency-limit", "Protocol": "protocol", "Scale": "scale", "Fillfactor": "fillfactor",
		"Initialize": "initialize", "InitSteps": "init-steps", "ForeignKeys": "foreign-keys", "QuietInit": "quiet-init",
		"Partitions": "partitions", "PartitionMethod": "partition-method", "Unlogged": "unlogged-tables",
		"Tablespace": "tablespace", "IndexTablespace": "index-tablespace", "NoVacuum": "no-vacuum",
		"SimpleUpdate": "skip-some-updates", "SelectOnly": "select-only", "Builtins": "builtin", "Files": "file",
		"Defines": "define", "ShowScript": "show-script", "ProgressStamp": "progress-timestamp", "Connect": "connect",
		"PerCommand": "report-per-command", "Log": "log", "LogPrefix": "log-prefix", "SamplingRate": "sampling-rate",
		"AggInterval": "aggregate-interval", "VacuumAll": "vacuum-all", "MaxTries": "max-tries",
		"VerboseErrors": "verbose-errors", "FailuresDetailed": "failures-detailed", "SeedSpec": "random-seed",
		"ConnectTimeout": "connect-timeout", "DSNs": "dsn", "Drivers": "driver", "Host": "host", "Port": "port",
		"User": "username", "Force": "force", "Warmup": "warmup", "Grace": "grace", "Shard": "shard", "StartAt": "start-at",
		"NoServerStats": "no-server-stats", "ServerStatsInterval": "server-stats-interval",
		// load's name for the clients, in its messages about sharding them
		"Workers": "client",
		// pg/server's names in its messages about the cluster a storage
		// profile places
		"StorageProfile": "storage-profile", "StorageServer": "storage-server",
		// the outputs -i refuses, and the capacity search
		"JSON": "json", "HTML": "html", "MD": "md", "CSV": "csv", "Find": "find-max-rate",
	}
}

// millis is a time.Duration flag given in milliseconds, as pgbench's -L.
type millis time.Duration

func (m *millis) String() string {
	return strconv.FormatFloat(float64(*m)/float64(time.Millisecond), 'f', -1, 64)
}

func (m *millis) Set(s string) error {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("want a number of milliseconds, got %q", s)
	}
	*m = millis(v * float64(time.Millisecond))
	return nil
}

func (m *millis) Type() string { return "float" }
