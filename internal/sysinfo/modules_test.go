package sysinfo

import (
	"bytes"
	"runtime/debug"
	"testing"
)

// `dbmeter version` lists the modules it is given that the binary links,
// sorted and once each, a replaced one with its replacement; a module it
// does not link (rocksdb's without the tag) is left out.
func TestWriteModules(t *testing.T) {
	t.Parallel()
	deps := []*debug.Module{
		{Path: "github.com/lib/pq", Version: "v1.12.3"},
		{Path: "github.com/ClickHouse/clickhouse-go", Version: "v1.5.4", Replace: &debug.Module{Path: "./third_party/clickhouse-go-v1"}},
		{Path: "github.com/spf13/cobra", Version: "v1.10.2"},
	}
	var buf bytes.Buffer
	writeModules(&buf, deps, []string{"github.com/lib/pq", "github.com/linxGnu/grocksdb", "github.com/ClickHouse/clickhouse-go", "github.com/lib/pq"})
	want := "  github.com/ClickHouse/clickhouse-go           v1.5.4 => ./third_party/clickhouse-go-v1\n" +
		"  github.com/lib/pq                             v1.12.3\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
