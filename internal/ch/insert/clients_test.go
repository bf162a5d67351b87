package insert

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
)

// TestClients is the conformance suite: every registered path, without a
// server, builds a generated block with its own code, encodes it with its
// library's encoder and must decode back exactly the block it was given.
func TestClients(t *testing.T) {
	t.Parallel()
	blocks := []*ch.Block{event.New(7).Block(1000), event.New(8).Block(1)}
	for _, name := range Names() {
		c := registered(name)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if c.External != nil {
				// It runs outside dbmeter: its conformance is the worker
				// tests (external_test.go) against a real server.
				if c.Open == nil || module(name) != "" || c.RoundTrip != nil {
					t.Fatalf("external entry %q mixes in Go client fields: %+v", name, c)
				}
				return
			}
			if c.Open == nil || c.RoundTrip == nil || module(name) == "" {
				t.Fatalf("registry entry %q is incomplete: %+v", name, c)
			}
			if c.MinServer == (ch.Version{}) {
				t.Errorf("%s declares no minimum server", name)
			}
			for _, b := range blocks {
				got, err := c.RoundTrip(b)
				if err != nil {
					t.Fatalf("round trip of %d rows: %v", b.Rows, err)
				}
				if diff := cmp.Diff(b, got); diff != "" {
					t.Errorf("round trip of %d rows differs (-sent +decoded):\n%.2000s", b.Rows, diff)
				}
			}
		})
	}
}

// registered is the path called name, which the caller knows is registered.
func registered(name string) Client {
	c, _ := Lookup(name)
	return c
}

func TestLookupUnknown(t *testing.T) {
	t.Parallel()
	_, err := Lookup("clickhouse-go-v3")
	if err == nil {
		t.Fatal("Lookup(clickhouse-go-v3) succeeded")
	}
	for _, n := range []string{"ch-go", "clickhouse-go-v1", "gorm"} {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %s", err, n)
		}
	}
}

// BenchmarkRoundTrip is each path's client-side work on one block of 10,000
// rows (its build code plus its library's encoder, and a decode), without
// a server.
func BenchmarkRoundTrip(b *testing.B) {
	blk := event.New(1).Block(10000)
	for _, name := range Names() {
		c := registered(name)
		if c.RoundTrip == nil {
			continue // an external client: BenchmarkExternal
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(blk.PayloadBytes())
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.RoundTrip(blk); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*float64(blk.Rows)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
