package kvtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dbmeter/dbmeter/internal/kv/engine"
)

// testScan checks a Scanner's count and order: keys written in random order
// come back sorted, from the first key at or after the start, as many as
// asked for or as remain, and deleted keys do not come back.
func testScan(t *testing.T, e engine.Engine) {
	s, _ := open(t, e, t.TempDir(), false)
	sc, ok := s.(engine.Scanner)
	if !ok {
		t.Skipf("%s has no ordered iteration (no engine.Scanner)", e.Name)
	}
	const n = 250
	for _, i := range rand.New(rand.NewPCG(1, 1)).Perm(n) {
		if err := s.Set(key(i), value(i)); err != nil {
			t.Fatalf("Set: %v", err)
		}
	}
	for _, i := range []int{105, 106} {
		if err := s.Delete(key(i)); err != nil {
			t.Fatalf("Delete: %v", err)
		}
	}
	cases := []struct {
		name  string
		start []byte
		limit int
		want  []int
	}{
		{"from a key", key(100), 10, []int{100, 101, 102, 103, 104, 107, 108, 109, 110, 111}},
		{"from between keys", append(key(99), 'x'), 2, []int{100, 101}},
		{"from before the first", []byte("a"), 3, []int{0, 1, 2}},
		{"past the last", key(247), 10, []int{247, 248, 249}},
		{"after every key", []byte("zzz"), 10, nil},
		{"nothing asked", key(0), 0, nil},
		{"one", key(7), 1, []int{7}},
	}
	for _, c := range cases {
		var got [][]byte
		count, err := sc.Scan(c.start, c.limit, func(k, v []byte) {
			got = append(got, bytes.Clone(k))
			if i := indexOf(k); i < 0 || !bytes.Equal(v, value(i)) {
				t.Errorf("%s: key %s came with value %q", c.name, k, v)
			}
		})
		if err != nil {
			t.Fatalf("%s: Scan(%s, %d): %v", c.name, c.start, c.limit, err)
		}
		var want [][]byte
		for _, i := range c.want {
			want = append(want, key(i))
		}
		if count != len(got) || fmt.Sprintf("%s", got) != fmt.Sprintf("%s", want) {
			t.Errorf("%s: Scan(%s, %d) = %d keys %s, want %d keys %s", c.name, c.start, c.limit, count, got, len(want), want)
		}
	}
}

// indexOf is the i of key(i), or -1.
func indexOf(k []byte) int {
	var i int
	if _, err := fmt.Sscanf(string(k), "key%06d", &i); err != nil || !bytes.Equal(k, key(i)) {
		return -1
	}
	return i
}
