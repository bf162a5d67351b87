package driver_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/lib/pq"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
)

func TestStmtText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		st   driver.Stmt
		args []any
		want string
	}{
		{driver.Stmt{SQL: "BEGIN"}, nil, "BEGIN"},
		{driver.Stmt{SQL: "SELECT $1", Parts: []string{"SELECT ", ""}}, []any{int64(-42)}, "SELECT -42"},
		{driver.Stmt{SQL: "SELECT $1, $2", Parts: []string{"SELECT ", ", ", ""}}, []any{1.5, "abc"}, "SELECT 1.5, abc"},
	}
	for _, tt := range tests {
		if got := tt.st.Text(tt.args); got != tt.want {
			t.Errorf("Text(%q, %v) = %q, want %q", tt.st.SQL, tt.args, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{&pgconn.PgError{Code: "40001"}, driver.KindSerialization},
		{&pgconn.PgError{Code: "40P01"}, driver.KindSerialization},
		{&pgconn.PgError{Code: "23505"}, load.KindServer},
		{&pgconn.PgError{Code: "57P01"}, load.KindConnection},
		{&pgconn.PgError{Code: "08006"}, load.KindConnection},
		{&pq.Error{Code: "40001"}, driver.KindSerialization},
		{&pq.Error{Code: "42P01"}, load.KindServer},
		{context.DeadlineExceeded, load.KindTimeout},
		{errors.New("conn closed"), load.KindConnection},
		{errors.New("something else"), load.KindOther},
	}
	for _, tt := range tests {
		if got := driver.Classify(tt.err); got != tt.want {
			t.Errorf("driver.Classify(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestParseMode(t *testing.T) {
	t.Parallel()
	for _, m := range driver.Modes() {
		if got, err := driver.ParseMode(m.String()); err != nil || got != m {
			t.Errorf("driver.ParseMode(%q) = %v, %v", m, got, err)
		}
	}
	if _, err := driver.ParseMode("fast"); err == nil {
		t.Error(`driver.ParseMode("fast") succeeded`)
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	if _, err := driver.Lookup("odbc"); err == nil || !strings.Contains(err.Error(), "pgx, pgx-stdlib, pq") {
		t.Errorf("Lookup(odbc) = %v, want an error listing the drivers", err)
	}
}
