package load

import (
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// PreciseSleeper returns a sleep for the open-loop scheduler (and for targets
// that must wait precisely). Go's timers wake up to a millisecond late on
// Linux (the netpoller's timeout is in milliseconds), which would add up to
// 1 ms of scheduler lateness to every latency measured from the intended
// start. A timerfd read through the netpoller wakes within tens of
// microseconds, without holding a thread or a P while it waits. It never
// spins, however short the wait: a spinning scheduler takes a core from the
// server it measures.
//
// The timer is armed and read with raw system calls: they never block (the
// descriptor is non-blocking and the wait is the netpoller's), and a
// regular system call wakes Go's sysmon thread each time the process was
// idle, which at a thousand sleeps a second costs more than the sleeps.
// release closes the timerfd.
func PreciseSleeper() (sleep func(time.Duration), release func()) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return time.Sleep, func() {}
	}
	f := os.NewFile(uintptr(fd), "timerfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return time.Sleep, func() {}
	}
	var buf [8]byte
	var spec unix.ItimerSpec
	// drain reads the expiration count; it reports false while the timer
	// has not fired, so that the netpoller waits.
	drain := func(fd uintptr) bool {
		_, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		return e != syscall.EAGAIN
	}
	return func(d time.Duration) {
		spec.Value = unix.NsecToTimespec(int64(d))
		_, _, e := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, uintptr(fd), 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
		if e != 0 || rc.Read(drain) != nil {
			time.Sleep(d)
		}
	}, func() { f.Close() }
}
