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

func TestSpell(t *testing.T) {
	t.Parallel()
	spelling := map[string]string{"Jobs": "-j", "Clients": "-c", "LatencyLimit": "--latency-limit"}
	for _, tc := range []struct{ in, want string }{
		{"{Jobs} (8) must not exceed {Clients} (4)", "-j (8) must not exceed -c (4)"},
		{"{LatencyLimit} must not be negative", "--latency-limit must not be negative"},
		{"a {Field} it does not know, and {unclosed", "a {Field} it does not know, and {unclosed"},
		{`SQL {"json": 1} stays`, `SQL {"json": 1} stays`},
		{"no fields", "no fields"},
	} {
		err := usage.Spell(usage.Errorf("%s", tc.in), spelling)
		if err.Error() != tc.want || !usage.Is(err) {
			t.Errorf("usage.Spell(%q) = %q (usage %v), want %q and still a usage error", tc.in, err, usage.Is(err), tc.want)
		}
	}
	if usage.Spell(nil, spelling) != nil {
		t.Error("usage.Spell(nil) is not nil")
	}
}
