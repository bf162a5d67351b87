package servertest

import (
	"os"
	"testing"
)

// The suite has two tiers (docs/development.md, "Test tiers"):
//
//   - the unit tier, plain `go test ./...` (make check): no server, no
//     network, nothing that runs for seconds or loads the machine; it
//     passes with nothing running and is cached by go test;
//   - the end-to-end tier, DBMETER_E2E=1 (make test): the real servers
//     (Env, PostgresDB), the tools (Tool) and the tests gated by E2E here.
//
// A test that needs a server asks for it with Env and is in the second
// tier by that alone. A test that needs none but does not belong in the
// first says so with E2E; one that must have the machine to itself, with
// Alone.

// E2E skips t unless the end-to-end tier runs (DBMETER_E2E=1): for a test
// that needs no server but takes seconds of CPU or wall time, builds and
// runs dbmeter's binary, or kills and restarts processes. why says what it
// does, for the skip's one line.
func E2E(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("DBMETER_E2E") != "1" {
		t.Skipf("end-to-end tier (DBMETER_E2E=1, as make test sets): %s", why)
	}
}

// Alone skips t unless it is the only test on the machine
// (DBMETER_ALONE=1, set by make test's stage of its own for it): a test
// that loads every core, which would slow every other test beside it and
// be spoiled by them. why says what it does. The Makefile's ALONE_TESTS
// names every test gated so, with its package, for make machine-load.
func Alone(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("DBMETER_ALONE") != "1" {
		t.Skipf("runs alone (DBMETER_ALONE=1, make test's machine-load stage): %s", why)
	}
}
