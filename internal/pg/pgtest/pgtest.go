// Package pgtest holds what the pg packages' tests share: a database of
// their own with the pgbench tables, a connection to it, and the real
// pgbench to compare with.
package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dbmeter/dbmeter/internal/pg/initdb"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// InitDB creates the pgbench tables at scale 1 in a database of its own.
func InitDB(t *testing.T) string {
	t.Helper()
	dsn := servertest.PostgresDB(t)
	ctx := context.Background()
	conn := Conn(t, dsn)
	defer conn.Close(ctx)
	if err := initdb.Init(ctx, conn, initdb.DefaultConfig()); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return dsn
}

// Conn connects to dsn or fails the test; the caller closes it.
func Conn(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := server.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// Pgbench is the real pgbench, the reference for everything
// pgbench-compatible.
func Pgbench(t *testing.T) string {
	return servertest.Tool(t, "pgbench", "install postgresql-client")
}
