package insert

import (
	"io"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Schema names the table's shape: an unknown one is refused as {Schema}
// before anything else, by Resolve and by Dump; a known one other than the
// event table fills its own table unless one is given.
func TestCommandSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		schema, table, want string
	}{
		{"", "", ""},
		{"event", "", ""},
		{"numbers", DefaultDatabase + ".numbers", ""},
		{"byte", DefaultDatabase + ".byte", ""},
		{"bytes", "", `{Schema}: no table shape "bytes": want event or numbers or byte`},
	}
	for _, tt := range tests {
		cmd := command()
		cmd.Schema = tt.schema
		if got := cmd.SchemaTable(); got != tt.table {
			t.Errorf("%q: SchemaTable = %q, want %q", tt.schema, got, tt.table)
		}
		c, err := cmd.Resolve(0, func() (load.Config, error) { return load.DefaultConfig(), nil }, 1, nil)
		if tt.want != "" {
			if err == nil || err.Error() != tt.want || !usage.Is(err) {
				t.Errorf("%q: Resolve = %v, want the usage error %q", tt.schema, err, tt.want)
			}
			cmd.DumpFormat, cmd.Config.Rows = DumpTSV, 3
			if err := cmd.Dump(io.Discard, load.DefaultSeed); err == nil || err.Error() != tt.want {
				t.Errorf("%q: Dump = %v, want %q", tt.schema, err, tt.want)
			}
			continue
		}
		if want := strings.TrimPrefix(tt.table, DefaultDatabase+"."); err != nil || (want != "" && c.Schema.Name != want) || (want == "" && c.schema().Name != EventTable.Name) {
			t.Errorf("%q: Resolve = schema %q, %v", tt.schema, c.Schema.Name, err)
		}
	}
}
