package insert

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/load"
)

// A dump of a sweep's command writes blocks of the list's first size, as
// the CLI binds --batch (Batches, Batch left unset).
func TestCommandDumpBatches(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	cmd := command()
	cmd.DumpFormat, cmd.Config.Rows, cmd.Config.Batch, cmd.Config.Batches = DumpTSV, 3, 0, []int{2, 1000}
	if err := cmd.Dump(&out, load.DefaultSeed); err != nil || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("Dump() = %v, %d lines; want 3 rows", err, strings.Count(out.String(), "\n"))
	}
}
