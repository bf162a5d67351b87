//go:build !linux

package load

import (
	"errors"
	"time"
)

// PreciseSleeper is time.Sleep where no timerfd exists.
func PreciseSleeper() (sleep func(time.Duration), release func()) {
	return time.Sleep, func() {}
}

// hrTimer exists only on Linux; elsewhere the open loop uses Go's timers.
type hrTimer struct{}

func newHRTimer() (*hrTimer, error) { return nil, errors.New("no timerfd on this system") }

func (*hrTimer) arm(time.Duration) bool { return false }
func (*hrTimer) wait() bool             { return false }
func (*hrTimer) close()                 {}
