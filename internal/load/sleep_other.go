//go:build !linux

package load

import "time"

// PreciseSleeper is time.Sleep where no timerfd exists.
func PreciseSleeper() (sleep func(time.Duration), release func()) {
	return time.Sleep, func() {}
}
