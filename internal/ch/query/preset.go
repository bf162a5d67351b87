package query

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch/numbers"
)

// A Spec is what every query of a run executes: the SQL text with ?
// placeholders and a function drawing each query's arguments.
type Spec struct {
	Name string // the workload name in the result: a preset or "query"
	SQL  string
	// Args draws one query's arguments; nil means none.
	Args func(r *rand.Rand) []any
}

// Preset is a query over dbmeter's own data set. Its parameters are drawn
// per query from the data's real ranges, so every query finds rows.
type Preset struct {
	Name  string
	Table string // the table it reads, made by Dataset.Create
	// SQL with {db} standing for the data set's database.
	SQL  string
	spec func(p Preset, db string, r Ranges) Spec
}

// Presets returns the query presets by name. The queries are the seed's.
func Presets() map[string]Preset {
	return map[string]Preset{
		"count": {Name: "count", Table: "events",
			SQL: "SELECT count() FROM {db}.events WHERE dt = ? AND tag = ?", spec: countSpec},
		"sum": {Name: "sum", Table: "metrics",
			SQL: "SELECT sum(value) FROM {db}.metrics WHERE ts >= ? AND ts < ? AND service = ?", spec: sumSpec},
		"select1k": {Name: "select1k", Table: "users",
			SQL: "SELECT id, name, score FROM {db}.users LIMIT 1000", spec: plainSpec},
		"select10k": {Name: "select10k", Table: "users",
			SQL: "SELECT id, name, score FROM {db}.users LIMIT 10000", spec: plainSpec},
		// Seed 002's select_test: N rows of ten numeric columns.
		"numbers": {Name: "numbers", Table: "numbers",
			SQL: "SELECT u8, u16, u32, u64, i8, i16, i32, i64, f32, f64 FROM {db}.numbers LIMIT {rows}", spec: rowsSpec},
		// The columns seed 002's author's select scripts read: the eight
		// integer ones of the same table.
		"numbers-int": {Name: "numbers-int", Table: "numbers",
			SQL: "SELECT " + strings.Join(numbers.AuthorSelect, ", ") + " FROM {db}.numbers LIMIT {rows}", spec: rowsSpec},
	}
}

// readsNumbers reports whether preset name reads the numbers table, whose
// reads SelectRows sizes.
func readsNumbers(name string) bool { return Presets()[name].Table == "numbers" }

// PresetNames lists the presets, sorted.
func PresetNames() []string {
	var names []string
	for n := range Presets() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Spec binds the preset to the data set in database db with ranges r.
func (p Preset) Spec(db string, r Ranges) Spec { return p.spec(p, db, r) }

func (p Preset) text(db string) string { return strings.ReplaceAll(p.SQL, "{db}", db) }

func plainSpec(p Preset, db string, _ Ranges) Spec {
	return Spec{Name: p.Name, SQL: p.text(db)}
}

// rowsSpec reads r.Rows rows.
func rowsSpec(p Preset, db string, r Ranges) Spec {
	return Spec{Name: p.Name, SQL: strings.ReplaceAll(p.text(db), "{rows}", strconv.Itoa(r.Rows))}
}

// countSpec draws a day and a tag that both exist in events.
func countSpec(p Preset, db string, r Ranges) Spec {
	days := int(r.LastDay.Sub(r.FirstDay)/(24*time.Hour)) + 1
	return Spec{Name: p.Name, SQL: p.text(db), Args: func(rng *rand.Rand) []any {
		day := r.FirstDay.AddDate(0, 0, rng.IntN(days))
		return []any{day.Format(time.DateOnly), r.Tags[rng.IntN(len(r.Tags))]}
	}}
}

// sumSpec draws a window of r.Window inside the metrics' time range and a
// service that exists. Times are Unix seconds, which ClickHouse compares
// with DateTime whatever the server's time zone.
func sumSpec(p Preset, db string, r Ranges) Spec {
	span := max(r.LastTS-r.FirstTS-int64(r.Window.Seconds()), 1)
	return Spec{Name: p.Name, SQL: p.text(db), Args: func(rng *rand.Rand) []any {
		from := r.FirstTS + rng.Int64N(span)
		return []any{from, from + int64(r.Window.Seconds()), r.Services[rng.IntN(len(r.Services))]}
	}}
}

// CustomSpec is a --query with fixed --arg values.
func CustomSpec(text string, args []any) Spec {
	s := Spec{Name: "query", SQL: text}
	if len(args) > 0 {
		s.Args = func(*rand.Rand) []any { return args }
	}
	return s
}

// Ranges are the parameter ranges found in the data set.
type Ranges struct {
	FirstDay, LastDay time.Time // events.dt
	Tags              []string  // events.tag
	FirstTS, LastTS   int64     // metrics.ts, Unix seconds
	Services          []string  // metrics.service
	Window            time.Duration
	// Rows is how many rows the numbers preset reads, 1 to NumbersRows.
	Rows int
}

func (r Ranges) check(table string) error {
	switch {
	case table == "events" && (len(r.Tags) == 0 || r.LastDay.Before(r.FirstDay)):
		return fmt.Errorf("table events is empty")
	case table == "metrics" && (len(r.Services) == 0 || r.LastTS < r.FirstTS):
		return fmt.Errorf("table metrics is empty")
	}
	return nil
}
