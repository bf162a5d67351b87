package ch

import (
	"errors"
	"testing"
)

// TestGroupTooOld: one old server refusing six clients is one refusal
// naming the six; a different reason stays a refusal of its own.
func TestGroupTooOld(t *testing.T) {
	t.Parallel()
	old := Version{18, 16, 1}
	var errs []error
	for _, c := range []string{"a", "b", "c"} {
		errs = append(errs, Suggest(CheckServer(c, old, MinModernServer), []string{"v1"}))
	}
	other := errors.New("something else")
	errs = append(errs, other, CheckServer("d", old, Version{19, 1, 0}))
	got := GroupTooOld(errs)
	want := []string{
		"clients a, b, c need ClickHouse 21.8.0 or newer, but the server is 18.16.1: pick a client that supports it (v1) or point {DSN} at a newer server",
		"something else",
		"client d needs ClickHouse 19.1.0 or newer, but the server is 18.16.1: point {DSN} at a newer server",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d errors %v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i].Error() != want[i] {
			t.Errorf("error %d = %q, want %q", i, got[i], want[i])
		}
	}
	var e *TooOldError
	if !errors.As(got[0], &e) || e.Server != old {
		t.Errorf("the grouped refusal is no longer a *TooOldError: %v", got[0])
	}
}
