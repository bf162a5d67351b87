package ch

import (
	"database/sql"
	"errors"
	"fmt"
	"net"
	"testing"

	chgo "github.com/ClickHouse/ch-go"
	"github.com/ClickHouse/ch-go/proto"
	clickhousev1 "github.com/ClickHouse/clickhouse-go"
	clickhouse "github.com/ClickHouse/clickhouse-go/v2"
	v2proto "github.com/ClickHouse/clickhouse-go/v2/lib/proto"

	"github.com/dbmeter/dbmeter/internal/load"
)

func TestMark(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"ch-go closed client", fmt.Errorf("send block: %w", chgo.ErrClosed), load.KindConnection},
		{"v2 closed connection", fmt.Errorf("query: %w", clickhouse.ErrConnectionClosed), load.KindConnection},
		{"v1 exception", fmt.Errorf("commit: %w", &clickhousev1.Exception{Code: 60, Message: "no table"}), load.KindServer},
		{"v2 exception", fmt.Errorf("send batch: %w", &v2proto.Exception{Code: 60}), load.KindServer},
		{"ch-go exception", fmt.Errorf("send block: %w", &chgo.Exception{Code: proto.ErrUnknownSetting}), load.KindServer},
		{"a kind already given wins", load.WithKind(chgo.ErrClosed, load.KindOther), load.KindOther},
		{"other stays other", errors.New("append row 3: bad type"), load.KindOther},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := load.Classify(Mark(tc.err)); got != tc.want {
				t.Errorf("Classify(Mark(%v)) = %q, want %q", tc.err, got, tc.want)
			}
		})
	}
	if Mark(nil) != nil {
		t.Error("Mark(nil) != nil")
	}
}

// TestV1HandshakeCutShort: a server that goes away in the middle of
// clickhouse-go v1's handshake (it was stopping, or had just started) is a
// connection error, not "other": v1 once wrapped that read error as text,
// which made a restart count as an unknown failure.
func TestV1HandshakeCutShort(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply []byte // what the server sends after the client's hello, before it closes
	}{
		{"closed before the hello", nil},       // a control: v1 said this one right already
		{"closed inside the hello", []byte{0}}, // packet ServerHello, then nothing
		{"closed inside the version", []byte{0, 10, 'C', 'l', 'i', 'c', 'k', 'H', 'o', 'u', 's', 'e', 18}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() { // database/sql retries a bad connection: serve every try alike
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					c.Read(make([]byte, 512)) // the client's hello
					c.Write(tc.reply)
					c.Close()
				}
			}()
			db, err := sql.Open(V1Driver, "tcp://"+ln.Addr().String()+"?read_timeout=5&write_timeout=5")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			err = db.PingContext(t.Context())
			if err == nil {
				t.Fatal("ping succeeded against a server that hung up")
			}
			if got := load.Classify(Mark(err)); got != load.KindConnection {
				t.Errorf("Classify(Mark(%q)) = %q, want %q", err, got, load.KindConnection)
			}
		})
	}
}
