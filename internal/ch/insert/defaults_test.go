package insert

import (
	"testing"

	"github.com/dbmeter/dbmeter/internal/load"
)

// The default load is the runner's, without its warm-up; the default
// experiment repeats, so that its figures have an interval.
func TestDefaultLoad(t *testing.T) {
	t.Parallel()
	got, want := DefaultLoad(), load.DefaultConfig()
	want.Warmup = 0
	if got.Warmup != 0 || got.Workers != want.Workers || got.Duration != want.Duration || got.Rate != want.Rate || DefaultRepeat < 2 || DefaultDuration <= 0 {
		t.Errorf("DefaultLoad = %+v, repeat %d × %s; want %+v, repeated", got, DefaultRepeat, DefaultDuration, want)
	}
}
