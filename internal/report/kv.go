package report

import (
	"io"

	"github.com/dbmeter/dbmeter/internal/result"
)

// kvTables renders the kv family's runs; until the family has its own
// layout it uses Generic.
func kvTables(w io.Writer, runs []result.Run) error { return Generic(w, runs) }
