package redact

import (
	"errors"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// UsageErr masks the secrets in an error's message and keeps a usage
// error one, so masking never changes the exit code; an error with
// nothing to mask is returned as it is.
func TestUsageErr(t *testing.T) {
	t.Parallel()
	plain := errors.New("dial hunter2@db: refused")
	user := usage.Errorf("bad DSN hunter2@db")
	clean := usage.Errorf("bad DSN")
	tests := []struct {
		name      string
		err       error
		want      string
		wantUsage bool
		same      bool // the error itself comes back
	}{
		{"nil", nil, "", false, true},
		{"plain error", plain, "dial " + Mask + "@db: refused", false, false},
		{"usage error", user, "bad DSN " + Mask + "@db", true, false},
		{"nothing to mask", clean, "bad DSN", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := UsageErr(tt.err, "hunter2")
			if tt.same && got != tt.err {
				t.Errorf("UsageErr(%v) = %v, want the error itself", tt.err, got)
			}
			if got == nil {
				return
			}
			if got.Error() != tt.want || usage.Is(got) != tt.wantUsage {
				t.Errorf("UsageErr(%v) = %q (usage error: %v), want %q (%v)", tt.err, got, usage.Is(got), tt.want, tt.wantUsage)
			}
		})
	}
}
