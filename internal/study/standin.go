package study

import "github.com/dbmeter/dbmeter/internal/ch/nullserver"

// NullStandin starts dbmeter's ClickHouse protocol stand-in, holding its
// insert table and query data set, on a free loopback port: what a
// {clickhouse} step runs against when no modern ClickHouse is given
// (Options.Standin; run's message about the step says it did not start).
// stop closes it.
func NullStandin() (dsn string, stop func(), err error) {
	srv, err := nullserver.Start(nullserver.Options{Listen: "127.0.0.1:0"})
	if err != nil {
		return "", nil, err
	}
	return srv.DSN(), func() { srv.Close() }, nil
}
