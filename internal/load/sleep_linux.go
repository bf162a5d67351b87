package load

import (
	"os"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// preciseSleeper returns a sleep for the open-loop scheduler. Go's timers
// wake up to a millisecond late on Linux (the netpoller's timeout is in
// milliseconds), which would add up to 1 ms of scheduler lateness to every
// latency measured from the intended start. A timerfd read through the
// netpoller wakes within tens of microseconds, without holding a thread or
// a P while it waits. Waits under spinBelow only yield: a sleep costs a
// system call and a wake-up, more than the wait itself at high rates.
// release closes the timerfd.
const spinBelow = 20 * time.Microsecond

func preciseSleeper() (sleep func(time.Duration), release func()) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return time.Sleep, func() {}
	}
	f := os.NewFile(uintptr(fd), "timerfd")
	var buf [8]byte
	return func(d time.Duration) {
		if d < spinBelow {
			runtime.Gosched()
			return
		}
		spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
		if unix.TimerfdSettime(fd, 0, &spec, nil) != nil {
			time.Sleep(d)
			return
		}
		f.Read(buf[:])
	}, func() { f.Close() }
}
