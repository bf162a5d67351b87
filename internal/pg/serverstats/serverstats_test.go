package serverstats

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestUnavailableHow: a view that could not be read is blamed on what
// failed. A cancelled or timed-out read (an interrupted run) is no matter
// of privileges (issue 35: "context canceled; grant the role
// pg_read_all_stats" for a superuser).
func TestUnavailableHow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"cancelled", fmt.Errorf("timeout: context already done: %w", context.Canceled), ""},
		{"out of time", fmt.Errorf("read: %w", context.DeadlineExceeded), ""},
		{"not created", &pgconn.PgError{Code: "42P01"}, "CREATE EXTENSION pg_stat_statements"},
		{"not preloaded", &pgconn.PgError{Code: "55000"}, "shared_preload_libraries"},
		{"privileges", &pgconn.PgError{Code: "42501"}, "grant the role pg_read_all_stats"},
		{"connection lost", errors.New("conn closed"), ""},
	} {
		got := unavailableHow(tc.err)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: unavailableHow(%v) = %q, want %q", tc.name, tc.err, got, tc.want)
		}
	}
}
