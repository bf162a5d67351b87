package report

import (
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// pg's retry columns follow the try limit the run recorded: none without
// one, none at 1 try, and shown for any other (0 is no limit).
func TestPGRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tries string // "" records none
		want  bool
	}{{"", false}, {"1", false}, {"0", true}, {"3", true}}
	for _, tt := range tests {
		r := result.Run{Params: map[string]string{}}
		if tt.tries != "" {
			r.Params[result.SettingMaxTries] = tt.tries
		}
		if got := pgRetries(&r); got != tt.want {
			t.Errorf("max-tries %q: retries %v, want %v", tt.tries, got, tt.want)
		}
	}
}
