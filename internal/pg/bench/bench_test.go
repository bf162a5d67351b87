package bench

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/pgtest"
	"github.com/dbmeter/dbmeter/internal/pg/script"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// balances reads the sums a TPC-B run must keep consistent.
func balances(t *testing.T, dsn string) (history, deltas, abalance, bbalance, tbalance int64) {
	t.Helper()
	ctx := context.Background()
	conn := pgtest.Conn(t, dsn)
	defer conn.Close(ctx)
	err := conn.QueryRow(ctx, `select (select count(*) from pgbench_history), (select coalesce(sum(delta), 0) from pgbench_history),
		(select sum(abalance) from pgbench_accounts), (select sum(bbalance) from pgbench_branches), (select sum(tbalance) from pgbench_tellers)`).
		Scan(&history, &deltas, &abalance, &bbalance, &tbalance)
	if err != nil {
		t.Fatal(err)
	}
	return
}

// TestBenchTPCBConsistent runs tpcb-like through every driver and mode and
// checks that each counted transaction did its work once: one history row,
// and every balance moved by the sum of the deltas.
func TestBenchTPCBConsistent(t *testing.T) {
	dsn := pgtest.InitDB(t)
	_, tpcb, err := script.Builtin("tpcb-like", nil)
	if err != nil {
		t.Fatal(err)
	}
	var ops int64
	for _, name := range driver.Names() {
		drv, _ := driver.Lookup(name)
		for _, mode := range driver.Modes() {
			b, err := NewBench(Config{Driver: drv, DSN: dsn, Mode: mode,
				Scripts: []Weighted{{Name: "tpcb-like", Script: tpcb, Weight: 1}},
				Vars:    map[string]script.Value{"scale": script.Int(1)}})
			if err != nil {
				t.Fatal(err)
			}
			cfg := load.DefaultConfig()
			cfg.Workers, cfg.Duration, cfg.Count, cfg.Warmup, cfg.Classify = 2, 0, 20, 0, driver.Classify
			res, err := load.Run(context.Background(), cfg, b.Ops(), b.NewWorker, nil)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, mode, err)
			}
			st := res.Stats(-1)
			if st.Errors != 0 || st.Ops != 20 {
				t.Fatalf("%s/%s: %d ok, %d errors %v; want 20 ok", name, mode, st.Ops, st.Errors, st.ErrorKinds)
			}
			if st.Rows != 20 {
				t.Errorf("%s/%s: read %d rows, want one per transaction", name, mode, st.Rows)
			}
			ops += st.Ops
		}
	}
	history, deltas, a, br, tl := balances(t, dsn)
	if history != ops {
		t.Errorf("pgbench_history has %d rows after %d transactions", history, ops)
	}
	if a != deltas || br != deltas || tl != deltas {
		t.Errorf("sum(delta) = %d but accounts %d, branches %d, tellers %d", deltas, a, br, tl)
	}
}

// TestClientReconnects: after its backend is killed, a client fails one
// transaction as a connection error and succeeds on the next.
func TestClientReconnects(t *testing.T) {
	dsn := pgtest.InitDB(t)
	_, sel, _ := script.Builtin("select-only", nil)
	for _, name := range driver.Names() {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			drv, _ := driver.Lookup(name)
			b, err := NewBench(Config{Driver: drv, DSN: dsn, Mode: driver.ModePrepared,
				Scripts: []Weighted{{Name: "select-only", Script: sel, Weight: 1}},
				Vars:    map[string]script.Value{"scale": script.Int(1)}})
			if err != nil {
				t.Fatal(err)
			}
			w, err := b.NewWorker(ctx, 0, load.Rand(1, 0))
			if err != nil {
				t.Fatal(err)
			}
			c := w.(*Client)
			defer c.Close()
			if _, err := c.Do(ctx); err != nil {
				t.Fatal(err)
			}
			admin, err := server.Connect(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer admin.Close(ctx)
			if _, err := admin.Exec(ctx, `select pg_terminate_backend(pid) from pg_stat_activity
				where datname = current_database() and pid <> pg_backend_pid()`); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond) // the backend's exit reaches the socket
			_, err = c.Do(ctx)
			if err == nil {
				t.Fatal("a transaction on a killed backend succeeded")
			}
			if k := driver.Classify(err); k != load.KindConnection {
				var kind interface{ ErrorKind() string }
				if !errors.As(err, &kind) || kind.ErrorKind() != load.KindConnection {
					t.Fatalf("error %v: kind %q, want connection", err, k)
				}
			}
			if _, err := c.Do(ctx); err != nil {
				t.Fatalf("the transaction after reconnecting failed: %v", err)
			}
			if b.Reconnects() != 1 {
				t.Errorf("reconnects = %d, want 1", b.Reconnects())
			}
		})
	}
}

// TestClientInterrupted: cancelling the run's context stops a statement
// blocked on the server, although statements run without that context, and
// the failure counts as unfinished, not as a connection error.
func TestClientInterrupted(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	sleep, err := script.Parse("sleep.sql", "SELECT pg_sleep(60);", script.Predefined())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range driver.Names() {
		t.Run(name, func(t *testing.T) {
			drv, _ := driver.Lookup(name)
			b, err := NewBench(Config{Driver: drv, DSN: dsn, Mode: driver.ModeExtended, Scripts: []Weighted{{Name: "sleep", Script: sleep, Weight: 1}}})
			if err != nil {
				t.Fatal(err)
			}
			w, err := b.NewWorker(context.Background(), 0, load.Rand(1, 0))
			if err != nil {
				t.Fatal(err)
			}
			defer w.(*Client).Close()
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(200*time.Millisecond, cancel)
			start := time.Now()
			_, err = w.Do(ctx)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Do = %v, want an error wrapping context.Canceled", err)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("Do returned after %s: the interrupt did not stop the statement", d)
			}
		})
	}
}
