package load

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// PreciseSleeper returns a sleep for the open-loop scheduler (and for targets
// that must wait precisely). Go's timers
// wake up to a millisecond late on Linux (the netpoller's timeout is in
// milliseconds), which would add up to 1 ms of scheduler lateness to every
// latency measured from the intended start. A timerfd read through the
// netpoller wakes within tens of microseconds, without holding a thread or
// a P while it waits. It never spins, however short the wait: a spinning
// scheduler takes a core from the server it measures. release closes the
// timerfd.
func PreciseSleeper() (sleep func(time.Duration), release func()) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return time.Sleep, func() {}
	}
	f := os.NewFile(uintptr(fd), "timerfd")
	var buf [8]byte
	return func(d time.Duration) {
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
		if unix.TimerfdSettime(fd, 0, &spec, nil) != nil {
			time.Sleep(d)
			return
		}
		f.Read(buf[:])
	}, func() { f.Close() }
}
