package load

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// A Schedule yields open-loop arrival times as offsets from the start of the
// run, in non-decreasing order. It is a pure sequence, so it is tested
// without clocks.
type Schedule interface {
	Next() time.Duration
}

// Arrival names an arrival process.
type Arrival string

// The arrival processes --arrival accepts.
const (
	ArrivalConstant Arrival = "constant" // evenly spaced: 1/rate apart
	ArrivalPoisson  Arrival = "poisson"  // exponential gaps with mean 1/rate
)

// ParseArrival checks an --arrival value.
func ParseArrival(s string) (Arrival, error) {
	switch a := Arrival(s); a {
	case ArrivalConstant, ArrivalPoisson:
		return a, nil
	}
	return "", fmt.Errorf("unknown arrival process %q (want constant or poisson)", s)
}

// NewSchedule returns the schedule of arrival a at rate per second.
func NewSchedule(a Arrival, rate float64, rng *rand.Rand) Schedule {
	if a == ArrivalPoisson {
		return &poisson{rate: rate, rng: rng}
	}
	return &constant{period: 1e9 / rate}
}

type constant struct {
	period float64 // ns
	n      float64
}

// Next computes n × period rather than accumulating, so rounding never drifts.
func (c *constant) Next() time.Duration {
	d := time.Duration(math.Round(c.n * c.period))
	c.n++
	return d
}

type poisson struct {
	rate float64
	t    float64 // seconds
	rng  *rand.Rand
}

func (p *poisson) Next() time.Duration {
	d := time.Duration(p.t * 1e9)
	p.t += p.rng.ExpFloat64() / p.rate
	return d
}
