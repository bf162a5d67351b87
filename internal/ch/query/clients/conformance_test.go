package clients

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/query"
)

// TestConformance runs every registered client against every available
// server: too new for the server → refused with ch.TooOldError; otherwise
// each decode mode returns every row, both modes agree, binding works where
// the client has it, a bad query is a server error, and connections are
// counted.
func TestConformance(t *testing.T) {
	for _, srv := range servers(t) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		version, err := ch.ServerVersion(ctx, srv.dsn)
		if err != nil {
			t.Fatalf("%s server: %v", srv.name, err)
		}
		for _, name := range Names() {
			t.Run(srv.name+"/"+name, func(t *testing.T) {
				c, err := Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				if err := ch.CheckServer(name, version, c.MinServer); err != nil {
					var too *ch.TooOldError
					if !errors.As(err, &too) {
						t.Fatalf("CheckServer = %v, want a *ch.TooOldError", err)
					}
					t.Skipf("refused as it should be: %v", err)
				}
				if c.External {
					if name == "worker" {
						t.Skip("a user's own worker: workers' tests run the minimal ones")
					}
					needWorker(t, name)
				}
				conform(ctx, t, srv, c)
			})
		}
	}
}

const conformSQL = `SELECT number AS id, concat('user', toString(number)) AS name, number / 4 AS score,
	toDate('2024-01-01') + number % 30 AS d, toDateTime('2024-01-01 00:00:00') + number AS ts
	FROM system.numbers LIMIT 3000`

func conform(ctx context.Context, t *testing.T, srv testServer, c query.Client) {
	var got []query.QueryStats
	for _, d := range []query.Decode{query.Row, query.Column} {
		q := open(ctx, t, srv, c, d, false)
		st, err := q.Query(ctx, conformSQL)
		if err != nil {
			t.Fatalf("decode %s: %v", d, err)
		}
		if st.Rows != 3000 || (st.DecodeNs <= 0 && st.ClientNs <= 0) {
			t.Errorf("decode %s: rows %d decode %dns client %dns, want 3000 rows and some decode (or, external, client) time", d, st.Rows, st.DecodeNs, st.ClientNs)
		}
		got = append(got, st)

		_, err = q.Query(ctx, "SELEC 1")
		if !query.IsServerError(err) {
			t.Errorf("decode %s: a syntax error gave %v, want a server error", d, err)
		}
		if p := q.Pool(); p.Opened < 1 {
			t.Errorf("decode %s: pool says %d connections opened, want at least 1", d, p.Opened)
		}
		q.Close()
	}
	if got[0].Bytes != got[1].Bytes {
		t.Errorf("row decode saw %d bytes, column decode %d: want the same", got[0].Bytes, got[1].Bytes)
	}
	if c.Prepare {
		q := open(ctx, t, srv, c, query.Row, true)
		defer q.Close()
		st, err := q.Query(ctx, "SELECT number FROM numbers(100) WHERE number < ?", int64(7))
		if err != nil || st.Rows != 7 {
			t.Errorf("bound query: rows %d, %v, want 7 rows", st.Rows, err)
		}
	}
}

func open(ctx context.Context, t *testing.T, srv testServer, c query.Client, d query.Decode, prepared bool) query.Querier {
	t.Helper()
	o := query.Options{DSN: srv.dsn, HTTPURL: srv.httpURL, Protocol: c.Protocols[0], Decode: d, Prepared: prepared, Pool: query.DefaultPool(),
		Worker: query.Worker{Getenv: os.Getenv}}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	q, err := c.Open(ctx, o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return q
}
