package query

import (
	"time"

	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/internal/load"
)

// DefaultExtent is the default experiment (DefaultRepeat × DefaultDuration),
// unless the user gives an extent of their own.
func DefaultExtent() load.Extent {
	return load.Extent{Repeat: DefaultRepeat, Duration: DefaultDuration}
}

// DefaultCommand is the command line with nothing given: every client,
// results walked row by row, parameters inlined, a pool of unlimited open
// and 2 idle connections kept forever, dbmeter's data set at its default
// sizes, an hour per sum query and 1,000 rows per numbers query. The CLI
// binds its flags from these.
func DefaultCommand() Command {
	data := DefaultDataset()
	return Command{
		Clients: []string{"all"}, Decodes: []string{string(Row)},
		Config: Config{
			Prepared: []bool{false}, MaxOpen: []int{0}, MaxIdle: []int{2},
			IdleTimeout: []time.Duration{0}, Lifetime: []time.Duration{0},
			Worker:    Worker{Timeout: extworker.DefaultOpTimeout},
			Data:      Dataset{Database: data.Database, Events: data.Events, Metrics: data.Metrics, Users: data.Users},
			SumWindow: time.Hour, SelectRows: 1000,
		},
	}
}
