package load

import (
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// PreciseSleeper returns a sleep for targets that must wait precisely. Go's
// timers wake up to a millisecond late on Linux (the netpoller's timeout is
// in milliseconds), which would add up to 1 ms to every wait. A timerfd read
// through the netpoller wakes within tens of microseconds, without holding
// a thread or a P while it waits. It never spins, however short the wait: a
// spinning client takes a core from the server it measures. release closes
// the timerfd.
func PreciseSleeper() (sleep func(time.Duration), release func()) {
	t, err := newHRTimer()
	if err != nil {
		return time.Sleep, func() {}
	}
	return func(d time.Duration) {
		if !t.arm(d) || !t.wait() {
			time.Sleep(d)
		}
	}, t.close
}

// hrTimer is a one-shot timerfd read through the netpoller: arming it and
// waiting for it are separate, so the open loop's leader can arm its next
// wake-up before it runs an operation and another goroutine can move an
// alarm that one goroutine waits on.
//
// The timer is armed and read with raw system calls: they never block (the
// descriptor is non-blocking and the wait is the netpoller's), and a
// regular system call wakes Go's sysmon thread each time the process was
// idle, which at a thousand sleeps a second costs more than the sleeps.
type hrTimer struct {
	f     *os.File
	fd    uintptr
	rc    syscall.RawConn
	drain func(fd uintptr) bool
	buf   [8]byte
}

func newHRTimer() (*hrTimer, error) {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "timerfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil, err
	}
	t := &hrTimer{f: f, fd: uintptr(fd), rc: rc}
	// drain reads the expiration count; it reports false while the timer
	// has not fired, so that the netpoller waits. Made once: a closure
	// made per wait would be allocated per wait.
	t.drain = func(fd uintptr) bool {
		_, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&t.buf[0])), uintptr(len(t.buf)))
		return e != syscall.EAGAIN
	}
	return t, nil
}

// arm makes the timer fire d from now (at once for d <= 0), replacing any
// earlier setting and any expiry not yet waited for. It may be called from
// any goroutine.
func (t *hrTimer) arm(d time.Duration) bool {
	var spec unix.ItimerSpec
	spec.Value = unix.NsecToTimespec(max(int64(d), 1)) // 0 would disarm it
	_, _, e := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, t.fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
	return e == 0
}

// wait blocks until the timer fires; one goroutine at a time. It reports
// false when the timer cannot be read (closed).
func (t *hrTimer) wait() bool { return t.rc.Read(t.drain) == nil }

func (t *hrTimer) close() { t.f.Close() }
