package sink

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/result"
)

func TestProgress(t *testing.T) {
	t.Parallel()
	tick := load.Tick{Seconds: 0.5, Interval: result.Interval{TS: 1.5, Ops: 5000, Errors: 2, P50: 1500, P99: 42_000}}
	tests := []struct {
		name string
		p    progress
		want []string // in the output, in order
	}{
		{"plain lines off a terminal", progress{label: "pebble/get"},
			[]string{"    1.5s pebble/get", "10000 ops/s", "p99    42.0µs", "errors 2\n"}},
		{"live line with the window", progress{label: "pebble/get", live: true, total: 10 * time.Second},
			[]string{"\r\033[K", "pebble/get  1.5s/10.0s ( 15%)  10,000 ops/s  p99 42.0µs  errors 2"}},
		{"live line in count mode", progress{label: "map/set", live: true, count: 20000},
			[]string{"map/set  5,002/20,000 ops ( 25%)"}},
		{"live line cut to the terminal", progress{label: "pebble/get", live: true, width: 12},
			[]string{"\r\033[Kpebble/get "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			p := tt.p
			p.w = &b
			p.Tick(tick)
			got := b.String()
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("progress printed %q, want %q in it (in order)", got, w)
				}
				rest = rest[i+len(w):]
			}
			if p.live {
				if strings.Contains(got, "\n") {
					t.Errorf("a live line must not end its line: %q", got)
				}
				p.end()
				if !strings.HasSuffix(b.String(), "\n") {
					t.Errorf("end did not close the live line: %q", b.String())
				}
			}
		})
	}
}
