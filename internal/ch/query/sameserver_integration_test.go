package query_test

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

// TestSameServer: an HTTP interface dbmeter derived is used only when it
// answers as the native server does; otherwise the error names the URL.
func TestSameServer(t *testing.T) {
	d, err := ch.ParseDSN(servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	own := servertest.Env(t, "DBMETER_CLICKHOUSE_HTTP_URL")
	ctx := context.Background()

	// Another server on the same host with the same version, started
	// 100 s earlier: it answers the real one's host and version.
	var host, version string
	var uptime int64
	if err := ask(ctx, d, &host, &version, &uptime); err != nil {
		t.Fatal(err)
	}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "%s\t%s\t%d\n", host, version, uptime+100)
	}))
	defer other.Close()
	notCH := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "<html>hello</html>")
	}))
	defer notCH.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()

	tests := []struct {
		name, url string
		want      string // in the error; "" for none
	}{
		{"its own http interface", own, ""},
		{"another server on the host", other.URL, other.URL + " is another server than " + d.Addr},
		{"not ClickHouse", notCH.URL, "not a ClickHouse answer"},
		{"nothing listening", closed, closed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := query.SameServer(ctx, d, tt.url)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("SameServer(%s): %v, want none", tt.url, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.url)):
				t.Errorf("SameServer(%s): %v, want an error naming the URL and %q", tt.url, err, tt.want)
			}
		})
	}
}

func ask(ctx context.Context, d ch.DSN, host, version *string, uptime *int64) error {
	db, err := sql.Open(ch.V1Driver, d.V1())
	if err != nil {
		return err
	}
	defer db.Close()
	return db.QueryRowContext(ctx, "SELECT hostName(), version(), uptime()").Scan(host, version, uptime)
}
