package standin

import (
	"context"
	"database/sql"
	"testing"

	chgo "github.com/ClickHouse/ch-go"
	"github.com/ClickHouse/ch-go/proto"
	clickhouse "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/dbmeter/dbmeter/internal/ch"
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

func TestSmoke(t *testing.T) {
	s := start(t, Options{})
	ctx := context.Background()
	c, err := chgo.Dial(ctx, chgo.Options{Address: s.Addr(), Compression: chgo.CompressionLZ4})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var v proto.ColStr
	if err := c.Do(ctx, chgo.Query{Body: "SELECT version()", Result: proto.Results{{Name: "version()", Data: &v}}}); err != nil {
		t.Fatal(err)
	}
	t.Log(v.Row(0))
	a, b, cc := new(proto.ColStr), new(proto.ColInt32), new(proto.ColInt64)
	for i := range 10 {
		a.Append("x")
		b.Append(int32(i))
		cc.Append(int64(i))
	}
	in := proto.Input{{Name: "a", Data: a}, {Name: "b", Data: b}, {Name: "c", Data: cc}}
	if err := c.Do(ctx, chgo.Query{Body: "INSERT INTO d.t (a, b, c) VALUES", Input: in}); err != nil {
		t.Fatal(err)
	}
	n, _ := s.Rows("d", "t")
	t.Log("rows", n)

	db, err := sql.Open(ch.V1Driver, "tcp://"+s.Addr()+"?compress=true")
	if err != nil {
		t.Fatal(err)
	}
	var cnt uint64
	if err := db.QueryRow("SELECT count() FROM d.t").Scan(&cnt); err != nil {
		t.Fatal(err)
	}
	t.Log("v1 count", cnt)
	var name, typ string
	if err := db.QueryRow("SELECT name, type FROM system.columns WHERE database = ? AND table = ? AND comment = ?", "d", "t", "mark").Scan(&name, &typ); err != nil {
		t.Fatal(err)
	}
	t.Log(name, typ)

	conn, err := clickhouse.Open(&clickhouse.Options{Addr: []string{s.Addr()}, Compression: &clickhouse.Compression{Method: clickhouse.CompressionLZ4}})
	if err != nil {
		t.Fatal(err)
	}
	batch, err := conn.PrepareBatch(ctx, "INSERT INTO d.t (a, b, c)")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		batch.Append("y", int32(i), int64(i))
	}
	if err := batch.Send(); err != nil {
		t.Fatal(err)
	}
	n, _ = s.Rows("d", "t")
	t.Log("rows", n)
	rows, err := conn.Query(ctx, "SELECT a, b, c FROM d.t LIMIT 3")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var a string
		var b int32
		var c int64
		if err := rows.Scan(&a, &b, &c); err != nil {
			t.Fatal(err)
		}
		t.Log(a, b, c)
	}
	hc, err := clickhouse.Open(&clickhouse.Options{Addr: []string{s.Addr()}, Protocol: clickhouse.HTTP})
	if err != nil {
		t.Fatal(err)
	}
	var ver string
	if err := hc.QueryRow(ctx, "SELECT version()").Scan(&ver); err != nil {
		t.Fatal(err)
	}
	t.Log("http", ver)
	for _, e := range s.Log().Entries() {
		t.Logf("%+v", e)
	}
}
