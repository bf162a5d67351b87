package report

import (
	"io"

	"github.com/dbmeter/dbmeter/internal/result"
)

// pgTables renders the pg family's runs; until the family has its own
// layout it uses Generic.
func pgTables(w io.Writer, runs []result.Run) error { return Generic(w, runs) }
