package pg

import (
	"strconv"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/serverstats"
)

// DefaultCommand is the command line with nothing given: pgbench's
// defaults (one client and thread, 10 transactions each, the simple query
// mode, scale 1, fill factor 100, init steps dtgvp, log prefix
// pgbench_log, one try) and dbmeter's own (the pgx driver, load's seed
// and grace, a connect timeout of 5 s, server statistics sampled every
// serverstats.DefaultInterval). The CLI binds its flags from these.
func DefaultCommand() Command {
	return Command{
		ClientsList: []int{1}, JobsList: []int{1}, Repeat: 1, PerClient: 10, Protocol: "simple", Scale: 1, Fillfactor: 100,
		InitSteps: "dtgvp", LogPrefix: "pgbench_log", MaxTries: 1, SeedSpec: strconv.Itoa(load.DefaultSeed),
		ConnectTimeout: 5 * time.Second, Drivers: []string{"pgx"}, Grace: load.DefaultGrace,
		ServerStatsInterval: serverstats.DefaultInterval,
	}
}
