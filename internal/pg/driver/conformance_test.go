package driver_test

import (
	"context"
	"testing"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/pgtest"
)

// TestDriverConformance runs every registered driver in every query mode
// against the real server: the contract Bench relies on.
func TestDriverConformance(t *testing.T) {
	dsn := pgtest.InitDB(t)
	for _, name := range driver.Names() {
		drv, _ := driver.Lookup(name)
		for _, mode := range driver.Modes() {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				ctx := context.Background()
				s, err := drv.Open(ctx, dsn, mode)
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				defer s.Close(ctx)
				sel := &driver.Stmt{Name: "t_sel", SQL: "SELECT abalance FROM pgbench_accounts WHERE aid = $1", Parts: []string{"SELECT abalance FROM pgbench_accounts WHERE aid = ", ""}, Query: true}
				upd := &driver.Stmt{Name: "t_upd", SQL: "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2", Parts: []string{"UPDATE pgbench_accounts SET abalance = abalance + ", " WHERE aid = ", ""}}
				begin := &driver.Stmt{Name: "t_begin", SQL: "BEGIN"}
				end := &driver.Stmt{Name: "t_end", SQL: "END"}
				many := &driver.Stmt{Name: "t_many", SQL: "SELECT aid FROM pgbench_accounts WHERE aid <= $1", Parts: []string{"SELECT aid FROM pgbench_accounts WHERE aid <= ", ""}, Query: true}
				bad := &driver.Stmt{Name: "t_bad", SQL: "SELECT 1 / $1", Parts: []string{"SELECT 1 / ", ""}, Query: true}
				for round := range 2 { // the second round uses prepared statements again
					if _, err := s.Exec(ctx, begin); err != nil {
						t.Fatalf("round %d BEGIN: %v", round, err)
					}
					n, err := s.Exec(ctx, upd, int64(-7), int64(42))
					if err != nil || n != 1 {
						t.Fatalf("round %d UPDATE = %d, %v; want 1 row", round, n, err)
					}
					rows, err := s.Query(ctx, sel, int64(42))
					if err != nil || rows != 1 {
						t.Fatalf("round %d SELECT = %d rows, %v; want 1", round, rows, err)
					}
					if _, err := s.Exec(ctx, end); err != nil {
						t.Fatalf("round %d END: %v", round, err)
					}
					rows, err = s.Query(ctx, many, int64(250))
					if err != nil || rows != 250 {
						t.Fatalf("round %d SELECT ... <= 250 = %d rows, %v; want 250", round, rows, err)
					}
				}
				_, err = s.Query(ctx, bad, int64(0))
				if err == nil || driver.Classify(err) != load.KindServer || driver.SQLState(err) != "22012" {
					t.Fatalf("SELECT 1/0: got %v (kind %q), want a server error 22012", err, driver.Classify(err))
				}
				if rows, err := s.Query(ctx, sel, int64(1)); err != nil || rows != 1 {
					t.Fatalf("after a server error the session must still work: %d rows, %v", rows, err)
				}
			})
		}
	}
}
