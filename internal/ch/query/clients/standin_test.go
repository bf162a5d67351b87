package clients

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/standin"
)

// dataStandIn runs a protocol stand-in holding dbmeter's query data set
// for the test.
func dataStandIn(t *testing.T, tls bool) *standin.Server {
	t.Helper()
	srv, err := standin.Listen("127.0.0.1:0", standin.Options{TLS: tls})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	for _, q := range query.DefaultDataset().Statements() {
		if err := srv.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

// TestStandIn runs every query path and preset against the protocol
// stand-in, native and HTTP, --prepared on and off, TLS on and off: each
// query answers the rows the stand-in generated for it, and every query
// the stand-in received came the way the DSN said.
func TestStandIn(t *testing.T) {
	for _, tls := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "tls"}[tls], func(t *testing.T) {
			srv := dataStandIn(t, tls)
			data := query.DefaultDataset()
			dsn, scheme := "clickhouse://"+srv.Addr()+"/default", "http://"
			if tls {
				dsn, scheme = dsn+"?secure=true&skip_verify=true", "https://"
			}
			d, err := ch.ParseDSN(dsn)
			if err != nil {
				t.Fatal(err)
			}
			admin, err := sql.Open(ch.V1Driver, d.V1())
			if err != nil {
				t.Fatal(err)
			}
			defer admin.Close()
			ctx := context.Background()
			for _, name := range Names() {
				c, _ := Lookup(name)
				if c.External {
					continue // tested against 18.16 (external_test.go)
				}
				for _, p := range c.Protocols {
					for _, prepared := range []bool{false, true} {
						if prepared && !c.Prepare {
							continue
						}
						if p == query.HTTP && name == "http" && tls {
							continue // dbmeter's http client verifies certificates: a self-signed one is refused
						}
						o := query.Options{DSN: d, HTTPURL: scheme + srv.Addr(), Protocol: p, Decode: query.Row, Prepared: prepared, Pool: query.DefaultPool()}
						q, err := c.Open(ctx, o)
						if err != nil {
							t.Fatalf("%s %s: %v", name, p, err)
						}
						for _, pn := range query.PresetNames() {
							preset := query.Presets()[pn]
							r, err := data.LoadRanges(ctx, admin, preset.Table, time.Hour)
							if err != nil {
								t.Fatal(err)
							}
							r.Rows = 2500 // --select-rows
							spec := preset.Spec(data.Database, r)
							text, args := spec.SQL, []any(nil)
							if spec.Args != nil {
								args = spec.Args(rand.New(rand.NewPCG(1, 2)))
							}
							if !prepared && len(args) > 0 {
								if text, err = query.Inline(text, args); err != nil {
									t.Fatal(err)
								}
								args = nil
							}
							st, err := q.Query(ctx, text, args...)
							if err != nil {
								t.Errorf("%s %s prepared=%t %s: %v", name, p, prepared, pn, err)
								continue
							}
							want, ok := map[string]int64{"count": 1, "sum": 1, "select1k": 1000, "select10k": 10000, "numbers": 2500, "numbers-int": 2500}[pn]
							if !ok {
								t.Fatalf("preset %s: no row count to expect", pn)
							}
							if st.Rows != want {
								t.Errorf("%s %s prepared=%t %s: %d rows, want %d", name, p, prepared, pn, st.Rows, want)
							}
						}
						q.Close()
					}
				}
			}
			bound := 0
			for _, e := range srv.Log().Entries() {
				if len(e.Parameters) > 0 {
					bound++
				}
				if e.TLS != tls {
					t.Errorf("%s %s: TLS %t, want %t", e.Protocol, e.Query, e.TLS, tls)
				}
				if e.Err != "" {
					t.Errorf("%s %s: the stand-in answered %s", e.Protocol, e.Query, e.Err)
				}
			}
			if bound == 0 {
				t.Error("no query came with server-side parameters: ch-go's --prepared did not bind on the server")
			}
		})
	}
}
