package ch

import (
	"errors"
	"fmt"
	"testing"

	chgo "github.com/ClickHouse/ch-go"
	clickhouse "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/dbmeter/dbmeter/internal/load"
)

func TestConnError(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"ch-go closed client", fmt.Errorf("send block: %w", chgo.ErrClosed), load.KindConnection},
		{"v2 closed connection", fmt.Errorf("query: %w", clickhouse.ErrConnectionClosed), load.KindConnection},
		{"server error keeps its kind", load.WithKind(chgo.ErrClosed, load.KindServer), load.KindServer},
		{"other stays other", errors.New("append row 3: bad type"), load.KindOther},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := load.Classify(ConnError(tc.err)); got != tc.want {
				t.Errorf("Classify(ConnError(%v)) = %q, want %q", tc.err, got, tc.want)
			}
		})
	}
	if ConnError(nil) != nil {
		t.Error("ConnError(nil) != nil")
	}
}
