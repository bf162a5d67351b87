package calibrate

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbmeter/dbmeter/internal/servertest"
)

func TestExpectedQuantile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q             float64
		period, stall time.Duration
		want          time.Duration
	}{
		{99, time.Second, 100 * time.Millisecond, 90 * time.Millisecond},
		{99.9, time.Second, 100 * time.Millisecond, 99 * time.Millisecond},
		{50, time.Second, 100 * time.Millisecond, 0}, // outside the freezes
		{90, time.Second, 100 * time.Millisecond, 0}, // exactly at the edge
		{99, 5 * time.Second, 200 * time.Millisecond, 150 * time.Millisecond},
	}
	for _, tt := range tests {
		got := ExpectedQuantile(tt.q, tt.period, tt.stall)
		if d := got - tt.want; d > time.Microsecond || d < -time.Microsecond {
			t.Errorf("ExpectedQuantile(%g, %s, %s) = %s, want %s", tt.q, tt.period, tt.stall, got, tt.want)
		}
	}
}

// The capacity check passes when the search finds the null target's
// analytical capacity, bounded by the objective, and fails when the open
// loop is broken: a dispatcher that wakes 5 ms late starts operations a
// tenth of the objective late, so the search blames dbmeter, not the
// target. Under a fake clock, so that the machine's noise plays no part.
func TestCapacityCheck(t *testing.T) {
	for _, tt := range []struct {
		name string
		late time.Duration
		pass bool
	}{{"a working search", 0, true}, {"a late dispatcher", 5 * time.Millisecond, false}} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sleep := func(d time.Duration) { time.Sleep(d + tt.late) }
				c, err := Capacity(context.Background(), 10*time.Millisecond, 10, time.Second, 0.05, Options{Sleep: sleep})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %s", c.Name, c.Got)
				if *c.Pass != tt.pass || c.Advice == "" {
					t.Errorf("%s: got %s, want %s: pass %v, want %v; advice %q", c.Name, c.Got, c.Want, *c.Pass, tt.pass, c.Advice)
				}
			})
		})
	}
}

// The verdict is the first column whatever the length of the figure.
func TestCheckLineAlignsVerdict(t *testing.T) {
	t.Parallel()
	pass, fail := verdict(true), verdict(false)
	for _, c := range []Check{
		{Name: "short", Got: "1", Want: "<= 2", Pass: pass},
		{Name: "long", Got: strings.Repeat("x", 120), Want: "<= 2", Pass: fail, Advice: "do this"},
		{Name: "info", Got: "3 ns"},
	} {
		line := c.String()
		if v := line[:6]; v != "PASS  " && v != "FAIL  " && v != "INFO  " {
			t.Errorf("line %q does not begin with its verdict", line)
		}
		if strings.Contains(line, "do this") != (c.Pass == fail) {
			t.Errorf("line %q: advice must follow a FAIL only", line)
		}
	}
}

// Each check with a verdict must fail when the thing it checks is broken.
// Only FAIL is asserted: whether a healthy dbmeter passes depends on the
// machine, which a test cannot promise.
func TestChecksFailWhenBroken(t *testing.T) {
	servertest.E2E(t, "runs the open loop for seconds, beside a spinning sleep")
	ctx := context.Background()
	late := func(d time.Duration) { time.Sleep(d + 2*time.Millisecond) }
	spin := func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
		}
	}
	tests := []struct {
		name  string
		check func() ([]Check, error)
		fails int // which of the returned checks must fail
	}{
		{"a late dispatcher fails the lag check", func() ([]Check, error) {
			return Scheduler(ctx, 10_000, 500*time.Millisecond, 100*time.Microsecond, 0.25, Options{Sleep: late})
		}, 0},
		{"a spinning dispatcher fails the CPU check", func() ([]Check, error) {
			return Scheduler(ctx, 1000, 500*time.Millisecond, 100*time.Microsecond, 0.02, Options{Sleep: spin})
		}, 1},
		{"timing from the actual start fails the stall check", func() ([]Check, error) {
			return Stall(ctx, 1000, 500*time.Millisecond, 100*time.Millisecond, 2*time.Second, 0.05, Options{ServiceTime: true})
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checks, err := tt.check()
			if err != nil {
				t.Fatal(err)
			}
			c := checks[tt.fails]
			if c.Pass == nil || *c.Pass {
				t.Errorf("%s: got %s, want %s: PASS, want FAIL", c.Name, c.Got, c.Want)
			}
			// A failure says what it means and what to do.
			if line := c.String(); !strings.HasPrefix(line, "FAIL  ") || c.Advice == "" || !strings.Contains(line, "\n      "+c.Advice) {
				t.Errorf("failed check prints %q; want FAIL first and its advice under it", line)
			}
		})
	}
}

// The floor-ratio check fails when dbmeter costs more than the bare
// precise-sleep loop it is compared with: a dispatcher that spins costs a
// core where the loop costs a few hundredths.
func TestFloorRatioFailsWhenBroken(t *testing.T) {
	servertest.E2E(t, "runs the open loop for a second with a spinning sleep")
	spin := func(d time.Duration) {
		for end := time.Now().Add(d); time.Now().Before(end); {
		}
	}
	checks, err := SchedulerFloor(context.Background(), 1000, 500*time.Millisecond, 100*time.Microsecond, 1.5, Options{Sleep: spin})
	if err != nil {
		t.Fatal(err)
	}
	if c := checks[1]; c.Pass == nil || *c.Pass {
		t.Errorf("%s: got %s, want %s: PASS, want FAIL", c.Name, c.Got, c.Want)
	}
}

// BenchmarkFloor is the CPU a bare loop that only sleeps with the precise
// sleeper until each arrival costs: one timer wake-up per arrival, the
// least an open loop that never spins can cost.
func BenchmarkFloor(b *testing.B) {
	for _, rate := range []float64{1000, 20000} {
		b.Run(fmtRate(rate), func(b *testing.B) {
			for b.Loop() {
				b.ReportMetric(Floor(context.Background(), rate, time.Second), "cores")
			}
		})
	}
}
