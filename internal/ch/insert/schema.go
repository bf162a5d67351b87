package insert

import (
	"fmt"
	"strings"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
	"github.com/dbmeter/dbmeter/internal/ch/numbers"
)

// Schema is a table shape ch insert can fill: its columns, how the
// created table is ordered and marked, and the generator of its rows.
type Schema struct {
	Name    string
	Columns []event.ColumnDef
	// Mark is the column that carries Mark in a table dbmeter created.
	Mark    string
	OrderBy string
	Ring    func(seed uint64, batch, n int) []*ch.Block
}

// The shapes: seed 000's event table (the default), ordered by time as a
// log table is, seed 002's ten numeric columns (the PHP client study's
// insert_test), in insertion order as the study's table kept them, and
// its one-byte rows of the Nagle test.
var (
	EventTable   = Schema{Name: "event", Columns: event.Columns, Mark: "lid", OrderBy: "(loccurtime, lid)", Ring: event.Ring}
	NumbersTable = Schema{Name: "numbers", Columns: numbers.Columns, Mark: "u64", OrderBy: "tuple()", Ring: numbers.Ring}
	// ByteTable is seed 002's Nagle test: one UInt8 column, so that the
	// rows of an INSERT are its bytes (8,170 and 8,171 at the 8 KB edge).
	ByteTable = Schema{Name: "byte", Columns: numbers.ByteColumns, Mark: "u8", OrderBy: "tuple()", Ring: numbers.ByteRing}
	Schemas   = []Schema{EventTable, NumbersTable, ByteTable}
)

// LookupSchema finds a schema by name.
func LookupSchema(name string) (Schema, error) {
	names := make([]string, len(Schemas))
	for i, s := range Schemas {
		if s.Name == name {
			return s, nil
		}
		names[i] = s.Name
	}
	return Schema{}, fmt.Errorf("no table shape %q: want %s", name, strings.Join(names, " or "))
}
