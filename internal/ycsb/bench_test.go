package ycsb_test

import (
	"math/rand/v2"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ycsb"
)

// BenchmarkChoosers is the cost of one draw of each key chooser and of a
// key name.
func BenchmarkChoosers(b *testing.B) {
	inserted := ycsb.NewCounter(100_000)
	for _, dist := range ycsb.Distributions() {
		b.Run(dist, func(b *testing.B) {
			keys, err := ycsb.NewKeys(dist, 100_000, 0, inserted)
			if err != nil {
				b.Fatal(err)
			}
			c, r := keys.Chooser(), rand.New(rand.NewPCG(1, 1))
			for b.Loop() {
				c.Next(r)
			}
		})
	}
	b.Run("key", func(b *testing.B) {
		rec, key := ycsb.DefaultRecord(), make([]byte, 0, 32)
		for i := int64(0); b.Loop(); i++ {
			key = rec.AppendKey(key[:0], i)
		}
	})
}
