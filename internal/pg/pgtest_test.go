package pg

import (
	"context"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"
)

// initDB creates the pgbench tables at scale 1 in a database of its own.
func initDB(t *testing.T) string {
	t.Helper()
	dsn := servertest.PostgresDB(t)
	ctx := context.Background()
	conn, err := Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := Init(ctx, conn, DefaultInitConfig()); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return dsn
}
