package standin

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	chgo "github.com/ClickHouse/ch-go"
	"github.com/ClickHouse/ch-go/proto"
	clickhousev1 "github.com/ClickHouse/clickhouse-go"
	clickhouse "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/servertest"
)

func start(t *testing.T, o Options) *Server {
	t.Helper()
	s, err := Listen("127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, q := range []string{
		"CREATE DATABASE d",
		"CREATE TABLE d.t (a String, b Int32 COMMENT 'mark', c Int64) ENGINE = Null",
	} {
		if err := s.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// client is one native client: it reports the version the server gave
// and inserts rows into d.t.
type client struct {
	name     string
	revision int // the protocol revision the stand-in must agree on
	run      func(ctx context.Context, addr string, rows int) (version string, err error)
}

var clients = []client{
	{"ch-go", proto.Version, func(ctx context.Context, addr string, rows int) (string, error) {
		c, err := chgo.Dial(ctx, chgo.Options{Address: addr, Compression: chgo.CompressionLZ4})
		if err != nil {
			return "", err
		}
		defer c.Close()
		if err := c.Ping(ctx); err != nil {
			return "", err
		}
		var v proto.ColStr
		if err := c.Do(ctx, chgo.Query{Body: "SELECT version()", Result: proto.Results{{Name: "version()", Data: &v}}}); err != nil {
			return "", err
		}
		a, b, cc := new(proto.ColStr), new(proto.ColInt32), new(proto.ColInt64)
		for i := range rows {
			a.Append("x")
			b.Append(int32(i))
			cc.Append(int64(i))
		}
		in := proto.Input{{Name: "a", Data: a}, {Name: "b", Data: b}, {Name: "c", Data: cc}}
		return v.Row(0), c.Do(ctx, chgo.Query{Body: "INSERT INTO d.t (a, b, c) VALUES", Input: in})
	}},
	{"clickhouse-go v2", proto.Version, func(ctx context.Context, addr string, rows int) (string, error) {
		conn, err := clickhouse.Open(&clickhouse.Options{Addr: []string{addr}, Compression: &clickhouse.Compression{Method: clickhouse.CompressionZSTD}})
		if err != nil {
			return "", err
		}
		defer conn.Close()
		if err := conn.Ping(ctx); err != nil {
			return "", err
		}
		var v string
		if err := conn.QueryRow(ctx, "SELECT version()").Scan(&v); err != nil {
			return "", err
		}
		batch, err := conn.PrepareBatch(ctx, "INSERT INTO d.t (a, b, c)")
		if err != nil {
			return v, err
		}
		for i := range rows {
			if err := batch.Append("y", int32(i), int64(i)); err != nil {
				return v, err
			}
		}
		return v, batch.Send()
	}},
	{"clickhouse-go v1", 54213, func(ctx context.Context, addr string, rows int) (string, error) {
		db, err := sql.Open(ch.V1Driver, "tcp://"+addr+"?compress=true&database=d")
		if err != nil {
			return "", err
		}
		defer db.Close()
		var v string
		if err := db.QueryRowContext(ctx, "SELECT version()").Scan(&v); err != nil {
			return "", err
		}
		return v, v1Insert(ctx, db, "d.t", rows)
	}},
}

// v1Insert inserts rows into table the database/sql way: a transaction, a
// prepared INSERT, one Exec per row, Commit.
func v1Insert(ctx context.Context, db *sql.DB, table string, rows int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO "+table+" (a, b, c) VALUES (?, ?, ?)")
	if err != nil {
		tx.Rollback()
		return err
	}
	defer stmt.Close()
	for i := range rows {
		if _, err := stmt.ExecContext(ctx, "z", int32(i), int64(i)); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// TestNativeClients: each native client agrees a revision with the
// stand-in, reads its version, and inserts rows that the stand-in decodes
// and counts; the log says who sent what.
func TestNativeClients(t *testing.T) {
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			s := start(t, Options{})
			rows := 1 + rand.IntN(500)
			v, err := c.run(t.Context(), s.Addr(), rows)
			if err != nil {
				t.Fatal(err)
			}
			if v != DefaultVersion {
				t.Errorf("version %q, want %q", v, DefaultVersion)
			}
			if n, _ := s.Rows("d", "t"); n != int64(rows) {
				t.Errorf("the stand-in counted %d rows, want %d", n, rows)
			}
			var acked int
			for _, e := range s.Log().Entries() {
				if e.Revision != c.revision || !e.Compressed || e.TLS {
					t.Errorf("logged revision %d compressed %t TLS %t, want %d, true, false", e.Revision, e.Compressed, e.TLS, c.revision)
				}
				if e.Acked {
					acked++
					if e.Rows != int64(rows) || e.Blocks != 1 {
						t.Errorf("logged INSERT of %d rows in %d blocks, want %d in 1", e.Rows, e.Blocks, rows)
					}
				}
			}
			if acked != 1 {
				t.Errorf("%d INSERTs acknowledged in the log, want 1", acked)
			}
		})
	}
}

// TestUnknownSetting: like a real server, the stand-in refuses an unknown
// setting sent as important (with UNKNOWN_SETTING, code 115), ignores one
// that is not, and takes a known one; over HTTP every URL parameter that
// is not one of the interface's own is a setting, and an unknown one is
// refused.
func TestUnknownSetting(t *testing.T) {
	s := start(t, Options{})
	ctx := t.Context()
	for _, tc := range []struct {
		setting   chgo.Setting
		wantError bool
	}{
		{chgo.Setting{Key: "async_insert", Value: "1", Important: true}, false},
		{chgo.Setting{Key: "no_such_setting", Value: "1", Important: true}, true},
		{chgo.Setting{Key: "no_such_setting", Value: "1", Important: false}, false},
	} {
		c, err := chgo.Dial(ctx, chgo.Options{Address: s.Addr(), Settings: []chgo.Setting{tc.setting}})
		if err != nil {
			t.Fatal(err)
		}
		err = c.Do(ctx, chgo.Query{Body: "SELECT 1", Result: discard()})
		c.Close()
		var ex *chgo.Exception
		switch {
		case tc.wantError && (!errors.As(err, &ex) || ex.Code != codeUnknownSetting || !strings.Contains(ex.Message, tc.setting.Key)):
			t.Errorf("%+v: %v, want UNKNOWN_SETTING naming it", tc.setting, err)
		case !tc.wantError && err != nil:
			t.Errorf("%+v: %v, want it taken", tc.setting, err)
		}
	}
	for param, want := range map[string]int{"max_threads": http.StatusOK, "no_such_setting": http.StatusBadRequest} {
		res, err := http.Get("http://" + s.Addr() + "/?query=" + url.QueryEscape("SELECT 1") + "&" + param + "=1")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want || (want != http.StatusOK && res.Header.Get("X-ClickHouse-Exception-Code") != "115") {
			t.Errorf("HTTP with %s: status %d code %q, want %d", param, res.StatusCode, res.Header.Get("X-ClickHouse-Exception-Code"), want)
		}
	}
}

// TestParameters: the server-side parameters a query names are
// substituted; one it names and does not send is refused, as a server
// does (UNKNOWN_QUERY_PARAMETER).
func TestParameters(t *testing.T) {
	s := start(t, Options{})
	ctx := t.Context()
	c, err := chgo.Dial(ctx, chgo.Options{Address: s.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got proto.ColStr
	err = c.Do(ctx, chgo.Query{Body: "SELECT {p0:String}", Parameters: []proto.Parameter{{Key: "p0", Value: "'x'"}},
		Result: proto.Results{{Name: "'x'", Data: &got}}})
	if err != nil || got.Rows() != 1 || got.Row(0) != "x" {
		t.Errorf("SELECT {p0:String} with p0 = 'x': %v, %d rows", err, got.Rows())
	}
	err = c.Do(ctx, chgo.Query{Body: "SELECT {p1:String}", Result: discard()})
	var ex *chgo.Exception
	if !errors.As(err, &ex) || ex.Code != codeUnknownParameter {
		t.Errorf("SELECT {p1:String} without p1: %v, want UNKNOWN_QUERY_PARAMETER", err)
	}
}

func discard() proto.Result {
	var r proto.Results
	return r.Auto()
}

// TestHTTPText: the HTTP interface writes the text formats as ClickHouse
// does: names, then types, then rows, tab-separated.
func TestHTTPText(t *testing.T) {
	s := start(t, Options{})
	for _, tc := range []struct{ query, want string }{
		{"SELECT version(), 1 FORMAT TabSeparatedWithNamesAndTypes", "version()\t1\nString\tUInt8\n" + DefaultVersion + "\t1\n"},
		{"SELECT a, b FROM d.t LIMIT 2 FORMAT TSVWithNames", "a\tb\n"},
		{"SELECT name, type FROM system.columns WHERE database = 'd' AND table = 't' AND comment = 'mark'", "b\tInt32\n"},
		{"SELECT count() FROM system.tables WHERE database = 'd'", "1\n"},
	} {
		res, err := http.Post("http://"+s.Addr()+"/", "text/plain", strings.NewReader(tc.query))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if string(body) != tc.want {
			t.Errorf("%s: %q, want %q", tc.query, body, tc.want)
		}
	}
}

// TestTLS: a TLS stand-in serves TLS only; a client that verifies its
// certificate through a CA file connects, one that trusts the system's
// CAs is refused, and a plaintext client gets nothing.
func TestTLS(t *testing.T) {
	s := start(t, Options{TLS: true})
	ctx := t.Context()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(s.CertPEM()) {
		t.Fatal("no certificate in CertPEM")
	}
	for _, tc := range []struct {
		name string
		tls  *tls.Config
		ok   bool
	}{
		{"verified by the CA file", &tls.Config{RootCAs: pool}, true},
		{"verification skipped", &tls.Config{InsecureSkipVerify: true}, true},
		{"system CAs", &tls.Config{}, false},
		{"plaintext", nil, false},
	} {
		c, err := chgo.Dial(ctx, chgo.Options{Address: s.Addr(), TLS: tc.tls, DialTimeout: 5e9, HandshakeTimeout: 5e9})
		if err == nil {
			err = c.Ping(ctx)
			c.Close()
		}
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %t", tc.name, err, tc.ok)
		}
	}
	for _, e := range s.Log().Entries() {
		if !e.TLS {
			t.Errorf("a query over plaintext to a TLS stand-in: %+v", e)
		}
	}
}

// TestInsertCutShort: an INSERT whose connection is lost before its end is
// not counted, as its client never had it acknowledged.
func TestInsertCutShort(t *testing.T) {
	s := start(t, Options{})
	ctx := t.Context()
	c, err := chgo.Dial(ctx, chgo.Options{Address: s.Addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	col := new(proto.ColInt32)
	col.Append(1)
	in := proto.Input{{Name: "b", Data: col}}
	sent := 0
	err = c.Do(ctx, chgo.Query{Body: "INSERT INTO d.t (b) VALUES", Input: in, OnInput: func(context.Context) error {
		if sent++; sent == 3 {
			s.Drop() // the server dies in the middle of the INSERT
		}
		return nil // more blocks, forever
	}})
	if err == nil {
		t.Fatal("an INSERT through a dropped connection succeeded")
	}
	if n, _ := s.Rows("d", "t"); n != 0 {
		t.Errorf("the stand-in counted %d rows of an INSERT it never acknowledged", n)
	}
}

// TestSharedWithLegacy runs clickhouse-go v1 (revision 54213) against the
// real ClickHouse 18.16 and the stand-in with the same statements and
// compares what each answered: the handshake and version query, the
// INSERT flow (header, data block, acknowledgement) and its row count,
// and the exceptions for a missing table and database.
func TestSharedWithLegacy(t *testing.T) {
	legacy, err := ch.ParseDSN(servertest.Env(t, "DBMETER_CLICKHOUSE_LEGACY_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	s := start(t, Options{})
	standin, _ := ch.ParseDSN("clickhouse://" + s.Addr() + "/default")
	db := fmt.Sprintf("dbmeter_standin_%08x", rand.Uint32())
	answers := map[string][]string{}
	for _, target := range []struct {
		name string
		dsn  ch.DSN
	}{{"18.16", legacy}, {"stand-in", standin}} {
		d := target.dsn
		d.Compress = "lz4"
		conn, err := sql.Open(ch.V1Driver, d.V1())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		ctx := t.Context()
		var out []string
		say := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
		must := func(q string) {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %s: %v", target.name, q, err)
			}
		}
		var v string
		err = conn.QueryRowContext(ctx, "SELECT version()").Scan(&v)
		_, verr := ch.ParseVersion(v)
		say("version query: %v, parses: %v", err, verr)
		must("CREATE DATABASE " + db)
		defer conn.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+db)
		must("CREATE TABLE " + db + ".t (a String, b Int32, c Int64) ENGINE = Memory")
		say("insert: %v", v1Insert(ctx, conn, db+".t", 123))
		var n uint64
		err = conn.QueryRowContext(ctx, "SELECT count() FROM "+db+".t").Scan(&n)
		say("count: %d %v", n, err)
		for _, q := range []string{"SELECT count() FROM " + db + ".missing", "SELECT count() FROM no_such_db_" + db + ".t"} {
			_, err := conn.ExecContext(ctx, q)
			var ex *clickhousev1.Exception
			code := int32(-1)
			if errors.As(err, &ex) {
				code = ex.Code
			}
			say("%s: exception %d", strings.Replace(q, db, "DB", -1), code)
		}
		answers[target.name] = out
	}
	if a, b := strings.Join(answers["18.16"], "\n"), strings.Join(answers["stand-in"], "\n"); a != b {
		t.Errorf("18.16 answered\n%s\nthe stand-in\n%s", a, b)
	}
	t.Logf("both answered:\n%s", strings.Join(answers["18.16"], "\n"))
}
