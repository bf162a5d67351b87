package cli

import (
	"context"
	"os"
	"testing"

	"github.com/dbmeter/dbmeter/internal/interrupt"
)

// testMainEnv makes this test binary dbmeter itself (as cmd/dbmeter's
// tests do): study run runs its steps with os.Executable, which under go
// test is this binary, built once by go test with the tests' own tags.
// Set here for the whole test process, so every step it starts inherits it.
const testMainEnv = "DBMETER_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(testMainEnv) == "1" {
		ctx, stop := interrupt.Notify(context.Background(), os.Stderr)
		code := Main(ctx, Env{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
		stop()
		os.Exit(code)
	}
	os.Setenv(testMainEnv, "1")
	os.Exit(m.Run())
}
