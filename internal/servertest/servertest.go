// Package servertest finds the real servers and tools integration tests
// run against (servers started by scripts/dev-services.sh and named by
// environment variables; pgbench, kubectl, git on PATH) and gives each
// test a database of its own on them.
//
// Gates, as ch-go's: a variable unset skips the test with the reason;
// DBMETER_E2E=1 (make test) turns that skip into a failure, so CI cannot
// pass by running nothing; DBMETER_E2E=0 skips every integration test.
package servertest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env returns the value of the environment variable name, skipping or
// failing t as DBMETER_E2E says when it is unset.
func Env(t testing.TB, name string) string {
	t.Helper()
	v := os.Getenv(name)
	switch e2e := os.Getenv("DBMETER_E2E"); {
	case e2e == "0":
		t.Skip("DBMETER_E2E=0: integration tests off")
	case v == "" && e2e == "1":
		t.Fatalf("DBMETER_E2E=1 but %s is not set: run scripts/dev-services.sh up and eval \"$(scripts/dev-services.sh env)\"", name)
	case v == "":
		t.Skipf("%s is not set: run scripts/dev-services.sh up and eval \"$(scripts/dev-services.sh env)\"", name)
	}
	return v
}

// Optional returns the value of the environment variable name, skipping t
// when it is unset whatever DBMETER_E2E says: a server this machine may
// lack (a modern ClickHouse).
func Optional(t testing.TB, name string) string {
	t.Helper()
	v := os.Getenv(name)
	switch {
	case os.Getenv("DBMETER_E2E") == "0":
		t.Skip("DBMETER_E2E=0: integration tests off")
	case v == "":
		t.Skipf("%s is not set: no server for this test", name)
	}
	return v
}

// Tool returns the path of the program name, skipping t when it is not on
// PATH, or failing it in CI (CI=true) or under DBMETER_E2E=1, which say
// every real part must be there. hint says what the program is for and
// what installs it: the skip's one line.
func Tool(t testing.TB, name, hint string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	switch {
	case err == nil:
		return p
	case os.Getenv("DBMETER_E2E") == "1" || os.Getenv("CI") == "true":
		t.Fatalf("%s is not on PATH (and DBMETER_E2E=1 or CI=true says every tool must be): %s", name, hint)
	default:
		t.Skipf("%s is not on PATH: %s", name, hint)
	}
	return ""
}

// LockedBuffer is a bytes.Buffer that a process's output goroutines and
// the test reading it may use at once.
type LockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// PostgresDB creates a database of the test's own on the server of
// DBMETER_PG_DSN, dropped when the test ends, and returns a DSN for it, so
// tests sharing the server never touch each other's pgbench tables.
func PostgresDB(t testing.TB) string {
	t.Helper()
	dsn := Env(t, "DBMETER_PG_DSN")
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("DBMETER_PG_DSN is not a postgres:// URL")
	}
	admin := func(ctx context.Context, sql string) error {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		_, err = conn.Exec(ctx, sql)
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := fmt.Sprintf("dbmeter_test_%d", rand.Uint64()%1e12)
	if err := admin(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := admin(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}
