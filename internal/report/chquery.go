package report

import (
	"io"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chQueryTable renders `ch query` runs; until it has its own layout it uses
// Generic.
func chQueryTable(w io.Writer, runs []result.Run) error { return Generic(w, runs) }
