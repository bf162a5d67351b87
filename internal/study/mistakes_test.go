package study

import (
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

func TestErrorsSummary(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int
		want string
	}{
		{1, "my.yaml: 1 mistake in the study file, on the line above; the format is described in docs/studies.md"},
		{3, "my.yaml: 3 mistakes in the study file, each on a line above; the format is described in docs/studies.md"},
	}
	for _, tt := range tests {
		err := make(Errors, tt.n).Summary("my.yaml")
		if err == nil || err.Error() != tt.want || !usage.Is(err) {
			t.Errorf("%d mistakes: %v, want the usage error %q", tt.n, err, tt.want)
		}
	}
}
