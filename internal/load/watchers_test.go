package load

import "testing"

type countTicks struct{ n int }

func (c *countTicks) Tick(Tick) { c.n++ }

// TestWatchersWatcher: no watcher is nil (the run then skips its ticks),
// one is itself, more fan each tick out to all of them.
func TestWatchersWatcher(t *testing.T) {
	if w := (Watchers{}).Watcher(); w != nil {
		t.Errorf("no watchers = %v, want nil", w)
	}
	a, b := &countTicks{}, &countTicks{}
	if w := (Watchers{a}).Watcher(); w != Watcher(a) {
		t.Errorf("one watcher = %v, want it itself", w)
	}
	(Watchers{a, b}).Watcher().Tick(Tick{})
	if a.n != 1 || b.n != 1 {
		t.Errorf("two watchers saw %d and %d ticks, want 1 each", a.n, b.n)
	}
}
