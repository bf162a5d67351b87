package server

import (
	"context"
	"fmt"
	"io"
)

// Server is what a run needs to know about one server.
type Server struct {
	DSN, Target, Version string
	// Scale is :scale: read from pgbench_branches when built-in scripts
	// run, else the -s given.
	Scale int64
}

// Prepare connects once to read the server's version and, when
// built-in scripts run, to check the pgbench tables and read the scale. A
// -s (scaleGiven) that disagrees with the tables gets pgbench's warning on
// warn.
func Prepare(ctx context.Context, dsn, target string, builtin bool, scale int64, scaleGiven bool, warn io.Writer) (*Server, error) {
	conn, err := Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	srv := &Server{DSN: dsn, Target: target, Scale: scale}
	if srv.Version, err = ServerVersion(ctx, conn); err != nil {
		return nil, err
	}
	if !builtin {
		return srv, nil
	}
	st, err := ReadTables(ctx, conn)
	if err != nil {
		return nil, err
	}
	_, db, _ := Endpoint(dsn)
	if err := CheckTables(st, fmt.Sprintf("database %q on %s", db, target)); err != nil {
		return nil, err
	}
	tables, err := Scale(ctx, conn)
	if err != nil {
		return nil, err
	}
	if scaleGiven && tables != scale {
		fmt.Fprintf(warn, "dbmeter pg: %s: scale option ignored, using count from pgbench_branches table (%d)\n", target, tables)
	}
	srv.Scale = tables
	return srv, nil
}

// PreRunVacuum is pgbench's vacuum before a run, on its own connection,
// with pgbench's progress words on log: the branches and tellers, the
// history emptied (only a history dbmeter created, unless force), and with
// all (-v) the accounts too.
func PreRunVacuum(ctx context.Context, srv *Server, all, force bool, log io.Writer) error {
	conn, err := Connect(ctx, srv.DSN)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	st, err := ReadTables(ctx, conn)
	if err != nil {
		return err
	}
	fmt.Fprint(log, "starting vacuum...")
	truncated, err := Vacuum(ctx, conn, st, force)
	if err != nil {
		fmt.Fprintln(log)
		return fmt.Errorf("%s: %w", srv.Target, err)
	}
	fmt.Fprintln(log, "end.")
	if all {
		fmt.Fprint(log, "starting vacuum pgbench_accounts...")
		if err := VacuumAccounts(ctx, conn, st); err != nil {
			fmt.Fprintln(log)
			return fmt.Errorf("%s: %w", srv.Target, err)
		}
		fmt.Fprintln(log, "end.")
	}
	if st.Exists["pgbench_history"] && !truncated {
		fmt.Fprintf(log, "dbmeter pg: %s: pgbench_history was not created by dbmeter, so it was not emptied (pgbench would; {Force} to allow)\n", srv.Target)
	}
	return nil
}
