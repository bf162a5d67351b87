//go:build !linux

package load

import "time"

func preciseSleeper() (sleep func(time.Duration), release func()) {
	return time.Sleep, func() {}
}
