package report

import (
	"io"

	"github.com/dbmeter/dbmeter/internal/result"
)

// chTables renders the ch family: insert runs in the insert layout, query
// runs in the query layout (chquery.go).
func chTables(w io.Writer, runs []result.Run) error {
	var inserts, queries []result.Run
	for _, r := range runs {
		if r.Workload == "insert" {
			inserts = append(inserts, r)
		} else {
			queries = append(queries, r)
		}
	}
	if len(inserts) > 0 {
		if err := chInsertTable(w, inserts); err != nil {
			return err
		}
	}
	if len(queries) > 0 {
		return chQueryTable(w, queries)
	}
	return nil
}

// chInsertTable renders `ch insert` runs; until it has its own layout it
// uses Generic.
func chInsertTable(w io.Writer, runs []result.Run) error { return Generic(w, runs) }
