package ch

import (
	"errors"
	"fmt"
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
