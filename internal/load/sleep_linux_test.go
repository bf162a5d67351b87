package load

import (
	"testing"
	"time"
)

// BenchmarkTimerArm is what arming the open loop's timerfd costs: one due
// soon (the leader's next wake-up, the first timer the kernel must
// reprogram the clock for) and one due later than another already armed.
// On a VM the first traps to the hypervisor.
func BenchmarkTimerArm(b *testing.B) {
	for _, tt := range []struct {
		name string
		in   time.Duration
	}{{"near=50µs", 50 * time.Microsecond}, {"far=1s", time.Second}} {
		b.Run(tt.name, func(b *testing.B) {
			t, err := newHRTimer()
			if err != nil {
				b.Skip(err)
			}
			defer t.close()
			for i := 0; b.Loop(); i++ {
				t.arm(tt.in + time.Duration(i%2))
			}
		})
	}
}
