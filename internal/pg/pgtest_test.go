package pg

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"testing"
	"time"
)

// serverDSN returns the test server's DSN or skips (fails under
// DBMETER_E2E=1) when there is none.
func serverDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("DBMETER_PG_DSN")
	switch e2e := os.Getenv("DBMETER_E2E"); {
	case e2e == "0":
		t.Skip("DBMETER_E2E=0: integration tests off")
	case dsn == "" && e2e == "1":
		t.Fatal("DBMETER_E2E=1 but DBMETER_PG_DSN is not set: start scripts/dev-services.sh up and eval its env")
	case dsn == "":
		t.Skip("DBMETER_PG_DSN is not set: run scripts/dev-services.sh up and eval \"$(scripts/dev-services.sh env)\"")
	}
	return dsn
}

// tempDB creates a database of the test's own, dropped at the end, and
// returns its DSN, so pgbench tables of other tests are never touched.
func tempDB(t *testing.T) string {
	t.Helper()
	dsn := serverDSN(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin, err := Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("dbmeter_pg_test_%d", rand.Uint64()%1e12)
	if _, err := admin.Exec(ctx, "create database "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		admin, err := Connect(ctx, dsn)
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer admin.Close(ctx)
		if _, err := admin.Exec(ctx, "drop database if exists "+name+" with (force)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	return withDB(t, dsn, name)
}

func withDB(t *testing.T, dsn, db string) string {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return dsn + " dbname=" + db
	}
	u.Path = "/" + db
	return u.String()
}

// initDB creates the pgbench tables at scale 1 in a database of its own.
func initDB(t *testing.T) string {
	t.Helper()
	dsn := tempDB(t)
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
