package interrupt

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
)

// A run ended by a signal exits 128 + its number and passes that signal on;
// one ended otherwise passes SIGINT and has no Cause.
func TestCause(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		cause  error
		ok     bool
		code   int
		passed os.Signal
	}{
		{"SIGTERM", Cause{syscall.SIGTERM}, true, 143, syscall.SIGTERM},
		{"SIGINT", Cause{os.Interrupt}, true, 130, os.Interrupt},
		{"wrapped", errors.Join(errors.New("x"), Cause{syscall.SIGHUP}), true, 129, syscall.SIGHUP},
		{"cancelled", nil, false, 0, syscall.SIGINT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(tt.cause)
			c, ok := Of(ctx)
			if ok != tt.ok || (ok && c.ExitCode() != tt.code) {
				t.Errorf("Of = %v, %v (exit %d); want %v, exit %d", c.Signal, ok, c.ExitCode(), tt.ok, tt.code)
			}
			if got := Passed(ctx); got != tt.passed {
				t.Errorf("Passed = %v, want %v", got, tt.passed)
			}
		})
	}
}
