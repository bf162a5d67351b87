package report

import (
	"io"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chTables renders the ch family's runs; until the family has its own
// layout it uses Generic.
func chTables(w io.Writer, runs []result.Run) error { return Generic(w, runs) }
