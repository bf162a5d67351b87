package usage_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// A usage error stays one through the wrapping a caller adds (fmt's %w,
// errors.Join of a plan's steps), and nothing else is one.
func TestIs(t *testing.T) {
	u := usage.Errorf("--rate must be positive, got %d", 0)
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"itself", u, true},
		{"wrapped", fmt.Errorf("step 2: %w", u), true},
		{"joined", errors.Join(errors.New("lost connection"), u), true},
		{"a plain error", errors.New("lost connection"), false},
		{"nil", nil, false},
		{"wrapped nil", usage.Wrap(nil), false},
	} {
		if got := usage.Is(tc.err); got != tc.want {
			t.Errorf("%s: Is(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
	if u.Error() != "--rate must be positive, got 0" {
		t.Errorf("message %q changed by the mark", u.Error())
	}
}
