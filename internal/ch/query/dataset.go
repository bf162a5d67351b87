package query

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Dataset is dbmeter's own data for the presets: three tables in a
// database of its own, generated on the server from a seed (cityHash64 of
// the row number and the seed), so the same flags give the same rows.
type Dataset struct {
	Database string
	Seed     uint64
	Events   int64 // rows in events(dt Date, tag String, user_id UInt64, value Float64)
	Metrics  int64 // rows in metrics(ts DateTime, service String, value Float64)
	Users    int64 // rows in users(id UInt64, name String, score Float64)
	// The numbers table (seed 002's select_test: u8 … f64) always holds
	// NumbersRows rows.
}

// NumbersRows is the size of the numbers table: the most rows seed 002's
// select benchmark read at once.
const NumbersRows = 10_000

// Shape of the generated data.
const (
	datasetDays     = 90  // events.dt and metrics.ts span this many days from 2024-01-01
	datasetTags     = 100 // distinct events.tag values
	datasetServices = 20  // distinct metrics.service values
	// markerTable marks a database as made by dbmeter: dbmeter drops or
	// rewrites tables only in a database that has it.
	markerTable = "dbmeter_created"
)

// DefaultDataset is the data set the presets use unless told otherwise.
func DefaultDataset() Dataset {
	return Dataset{Database: "dbmeter_query", Seed: 1, Events: 1_000_000, Metrics: 1_000_000, Users: 100_000}
}

// Validate reports the first setting that cannot work.
func (d Dataset) Validate() error {
	switch {
	case d.Database == "" || !identifier(d.Database):
		return fmt.Errorf("database name %q must be letters, digits and _", d.Database)
	case d.Events < 1 || d.Metrics < 1 || d.Users < 1:
		return fmt.Errorf("every table needs at least one row (events %d, metrics %d, users %d)", d.Events, d.Metrics, d.Users)
	}
	return nil
}

func identifier(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ErrNotOurs is returned when the database exists but dbmeter did not make it.
var ErrNotOurs = errors.New("exists and was not created by dbmeter")

// Create makes the data set through db (any database/sql ClickHouse
// driver). It reuses tables whose marker records the same seed and sizes,
// regenerates them otherwise, and refuses a database dbmeter did not make.
// It reports whether it generated data.
func (d Dataset) Create(ctx context.Context, db *sql.DB) (bool, error) {
	exists, err := d.exists(ctx, db, "")
	if err != nil {
		return false, err
	}
	if exists {
		ours, err := d.exists(ctx, db, markerTable)
		if err != nil {
			return false, err
		}
		if !ours {
			return false, fmt.Errorf("database %s %w: pick another with {Database}", d.Database, ErrNotOurs)
		}
		same, err := d.sameAsMarker(ctx, db)
		if err != nil {
			return false, err
		}
		// A data set made before the numbers table existed lacks it.
		if same {
			if complete, err := d.exists(ctx, db, "numbers"); err != nil || complete {
				return false, err
			}
		}
	}
	for _, q := range d.ddl(exists) {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return false, fmt.Errorf("create data set: %s: %w", firstWords(q), err)
		}
	}
	return true, nil
}

// exists reports whether the database (table "") or one of its tables exists.
func (d Dataset) exists(ctx context.Context, db *sql.DB, table string) (bool, error) {
	var n uint64
	var err error
	if table == "" {
		err = db.QueryRowContext(ctx, "SELECT count() FROM system.databases WHERE name = '"+d.Database+"'").Scan(&n)
	} else {
		err = db.QueryRowContext(ctx, "SELECT count() FROM system.tables WHERE database = '"+d.Database+"' AND name = '"+table+"'").Scan(&n)
	}
	if err != nil {
		return false, fmt.Errorf("look for %s %s: %w", d.Database, table, err)
	}
	return n > 0, nil
}

func (d Dataset) sameAsMarker(ctx context.Context, db *sql.DB) (bool, error) {
	var seed, events, metrics, users uint64
	err := db.QueryRowContext(ctx, fmt.Sprintf("SELECT seed, events, metrics, users FROM %s.%s LIMIT 1", d.Database, markerTable)).
		Scan(&seed, &events, &metrics, &users)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("read %s.%s: %w", d.Database, markerTable, err)
	}
	return seed == d.Seed && int64(events) == d.Events && int64(metrics) == d.Metrics && int64(users) == d.Users, nil
}

// Statements are the statements that make the data set in a server that
// has none of it: what `dbmeter ch null-server` starts with.
func (d Dataset) Statements() []string { return d.ddl(false) }

// ddl is the statements that (re)make the data set. The marker table is
// made first, so a half-made database is still known to be dbmeter's, and
// its row is written last, so it only ever describes complete data.
func (d Dataset) ddl(exists bool) []string {
	db, s := d.Database, d.Seed
	var q []string
	if !exists {
		q = append(q, "CREATE DATABASE "+db)
	}
	q = append(q,
		fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s (created_by String, seed UInt64, events UInt64, metrics UInt64, users UInt64, created_at DateTime) ENGINE = TinyLog", db, markerTable),
		fmt.Sprintf("TRUNCATE TABLE %s.%s", db, markerTable),
		fmt.Sprintf("DROP TABLE IF EXISTS %s.events", db),
		fmt.Sprintf("DROP TABLE IF EXISTS %s.metrics", db),
		fmt.Sprintf("DROP TABLE IF EXISTS %s.users", db),
		fmt.Sprintf("DROP TABLE IF EXISTS %s.numbers", db),
		fmt.Sprintf("CREATE TABLE %s.events (dt Date, tag String, user_id UInt64, value Float64) ENGINE = MergeTree() PARTITION BY toYYYYMM(dt) ORDER BY (tag, dt)", db),
		fmt.Sprintf("CREATE TABLE %s.metrics (ts DateTime, service String, value Float64) ENGINE = MergeTree() PARTITION BY toYYYYMM(ts) ORDER BY (service, ts)", db),
		fmt.Sprintf("CREATE TABLE %s.users (id UInt64, name String, score Float64) ENGINE = MergeTree() ORDER BY id", db),
		fmt.Sprintf("CREATE TABLE %s.numbers (u8 UInt8, u16 UInt16, u32 UInt32, u64 UInt64, i8 Int8, i16 Int16, i32 Int32, i64 Int64, f32 Float32, f64 Float64) ENGINE = MergeTree() ORDER BY tuple()", db),
		fmt.Sprintf(`INSERT INTO %s.events SELECT toDate('2024-01-01') + (cityHash64(number, %d, 1) %% %d),
			concat('tag', toString(cityHash64(number, %d, 2) %% %d)), cityHash64(number, %d, 3) %% 100000,
			(cityHash64(number, %d, 4) %% 1000000) / 100 FROM numbers(%d)`, db, s, datasetDays, s, datasetTags, s, s, d.Events),
		fmt.Sprintf(`INSERT INTO %s.metrics SELECT toDateTime('2024-01-01 00:00:00') + (cityHash64(number, %d, 1) %% %d),
			concat('svc', toString(cityHash64(number, %d, 2) %% %d)), (cityHash64(number, %d, 3) %% 1000000) / 1000
			FROM numbers(%d)`, db, s, datasetDays*86400, s, datasetServices, s, d.Metrics),
		fmt.Sprintf(`INSERT INTO %s.users SELECT number, concat('user', toString(cityHash64(number, %d, 1) %% 1000000000)),
			(cityHash64(number, %d, 2) %% 1000000) / 1000 FROM numbers(%d)`, db, s, s, d.Users),
		fmt.Sprintf(`INSERT INTO %[1]s.numbers SELECT toUInt8(cityHash64(number, %[2]d, 1) %% 256), toUInt16(cityHash64(number, %[2]d, 2) %% 65536),
			toUInt32(cityHash64(number, %[2]d, 3) %% 4294967296), cityHash64(number, %[2]d, 4),
			toInt8(toInt16(cityHash64(number, %[2]d, 5) %% 256) - 128), toInt16(toInt32(cityHash64(number, %[2]d, 6) %% 65536) - 32768),
			toInt32(toInt64(cityHash64(number, %[2]d, 7) %% 4294967296) - 2147483648), toInt64(cityHash64(number, %[2]d, 8)),
			toFloat32((cityHash64(number, %[2]d, 9) %% 2000000) / 1000 - 1000), (cityHash64(number, %[2]d, 10) %% 2000000000) / 1000000 - 1000
			FROM numbers(%[3]d)`, db, s, NumbersRows),
		fmt.Sprintf("INSERT INTO %s.%s SELECT 'dbmeter', %d, %d, %d, %d, now()", db, markerTable, s, d.Events, d.Metrics, d.Users),
	)
	return q
}

func firstWords(q string) string {
	if len(q) > 60 {
		return q[:60] + "…"
	}
	return q
}

// LoadRanges reads the parameter ranges of the data set, and fails with
// what to do when the table a preset needs is missing or empty.
func (d Dataset) LoadRanges(ctx context.Context, db *sql.DB, table string, window time.Duration) (Ranges, error) {
	r := Ranges{Window: window}
	ok, err := d.exists(ctx, db, table)
	if err != nil {
		return r, err
	}
	if !ok {
		return r, fmt.Errorf("table %s.%s does not exist: run with {Create} to make dbmeter's data set", d.Database, table)
	}
	switch table {
	case "events":
		var first, last string
		err = db.QueryRowContext(ctx, fmt.Sprintf("SELECT toString(min(dt)), toString(max(dt)) FROM %s.events", d.Database)).Scan(&first, &last)
		if err == nil {
			r.FirstDay, _ = time.Parse(time.DateOnly, first)
			r.LastDay, _ = time.Parse(time.DateOnly, last)
			r.Tags, err = queryStrings(ctx, db, fmt.Sprintf("SELECT DISTINCT tag FROM %s.events ORDER BY tag LIMIT 100000", d.Database))
		}
	case "metrics":
		var first, last uint64
		err = db.QueryRowContext(ctx, fmt.Sprintf("SELECT toUInt64(toUInt32(min(ts))), toUInt64(toUInt32(max(ts))) FROM %s.metrics", d.Database)).Scan(&first, &last)
		if err == nil {
			r.FirstTS, r.LastTS = int64(first), int64(last)
			r.Services, err = queryStrings(ctx, db, fmt.Sprintf("SELECT DISTINCT service FROM %s.metrics ORDER BY service LIMIT 100000", d.Database))
		}
	}
	if err != nil {
		return r, fmt.Errorf("read the ranges of %s.%s: %w", d.Database, table, err)
	}
	if err := r.check(table); err != nil {
		return r, fmt.Errorf("%s.%w: run with {Create} to regenerate it", d.Database, err)
	}
	return r, nil
}

func queryStrings(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
