package report

import (
	"fmt"
	"math"
)

// Nanos formats a duration in nanoseconds with three significant digits and
// the largest unit that keeps it at least 1: 950ns, 12.3µs, 4.56ms, 1.20s.
func Nanos(ns int64) string {
	return nanos(float64(ns))
}

func nanos(v float64) string {
	units := []struct {
		div  float64
		name string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}}
	for _, u := range units {
		if math.Abs(v) >= u.div {
			return sig3(v/u.div) + u.name
		}
	}
	return fmt.Sprintf("%.0fns", v)
}

// sig3 prints v with three significant digits.
func sig3(v float64) string {
	switch a := math.Abs(v); {
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// Count formats a rate or count with thousands separators: 1,234,567.
func Count(v float64) string {
	neg := v < 0
	s := fmt.Sprintf("%.0f", math.Abs(v))
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// Bytes formats a byte count in binary units.
func Bytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for math.Abs(b) >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f%s", b, units[i])
	}
	return sig3(b) + units[i]
}
