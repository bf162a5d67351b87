package clients

import (
	"os"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// testServer is a ClickHouse server an integration test can use.
type testServer struct {
	name    string
	dsn     ch.DSN
	httpURL string
}

// legacyServer is dev-services' 18.16: unset, the test skips, unless
// DBMETER_E2E=1 says a missing server is a failure.
func legacyServer(t *testing.T) testServer {
	t.Helper()
	s := servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN")
	return parseServer(t, "legacy", s, os.Getenv("DBMETER_CLICKHOUSE_HTTP_URL"))
}

// servers lists the legacy server and, when DBMETER_CLICKHOUSE_MODERN_DSN names
// one, a modern server (none can run on the development machines).
func servers(t *testing.T) []testServer {
	t.Helper()
	out := []testServer{legacyServer(t)}
	if s := os.Getenv("DBMETER_CLICKHOUSE_MODERN_DSN"); s != "" {
		out = append(out, parseServer(t, "modern", s, os.Getenv("DBMETER_CLICKHOUSE_MODERN_HTTP_URL")))
	} else {
		t.Log("DBMETER_CLICKHOUSE_MODERN_DSN unset: modern-only clients are only checked for refusing 18.16")
	}
	return out
}

func parseServer(t *testing.T, name, dsn, httpURL string) testServer {
	t.Helper()
	d, err := ch.ParseDSN(dsn)
	if err != nil {
		t.Fatalf("%s server: %v", name, err)
	}
	if httpURL == "" {
		httpURL = "http://" + d.Addr[:len(d.Addr)-len("9000")] + "8123"
	}
	return testServer{name: name, dsn: d, httpURL: httpURL}
}
