package pg

import (
	"context"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"
	"github.com/jackc/pgx/v5"
)

// initDB creates the pgbench tables at scale 1 in a database of its own.
func initDB(t *testing.T) string {
	t.Helper()
	dsn := servertest.PostgresDB(t)
	ctx := context.Background()
	conn := testConn(t, dsn)
	defer conn.Close(ctx)
	if err := Init(ctx, conn, DefaultInitConfig()); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return dsn
}

// testConn connects to dsn or fails the test; the caller closes it.
func testConn(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}
