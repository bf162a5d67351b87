package load

import "time"

// An Extent is a command's default run when the user set none of its
// extent ({Duration}, {Count}, {Repeat}, nor the fields named in Also):
// Repeat repetitions of Duration instead of one of the configured
// duration. A default run is then an experiment with an interval on its
// figures, while a command that says how long to run still runs exactly
// that.
type Extent struct {
	Repeat   int
	Duration time.Duration
	Also     []string
}

// Apply returns the repetitions and the duration to run: e's, unless
// given says the user set some of the extent, and then repeat and d.
func (e Extent) Apply(given func(field string) bool, repeat int, d time.Duration) (int, time.Duration) {
	for _, field := range append([]string{"Duration", "Count", "Repeat"}, e.Also...) {
		if given(field) {
			return repeat, d
		}
	}
	return e.Repeat, e.Duration
}
