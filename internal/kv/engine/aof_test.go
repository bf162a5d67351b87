package engine

import (
	"testing"
)

// A crash mid-append leaves a torn record: replay stops before it and says
// how much of the file is good.
func TestReplayAOFTornTail(t *testing.T) {
	var a aof
	a.add(aofSet, []byte("k1"), []byte("v1"))
	a.add(aofDel, []byte("k0"), nil)
	whole := len(a.buf)
	a.add(aofSet, []byte("k2"), []byte("value two"))
	for cut := whole; cut < len(a.buf); cut++ {
		var got []string
		n := replayAOF(a.buf[:cut], func(op byte, k, v []byte) { got = append(got, string(op)+string(k)+"="+string(v)) })
		if n != whole || len(got) != 2 || got[0] != "Sk1=v1" || got[1] != "Dk0=" {
			t.Fatalf("replay of %d of %d bytes = %d bytes, %q; want %d bytes, [Sk1=v1 Dk0=]", cut, len(a.buf), n, got, whole)
		}
	}
	if n := replayAOF(a.buf, func(byte, []byte, []byte) {}); n != len(a.buf) {
		t.Fatalf("replay of the whole file covered %d of %d bytes", n, len(a.buf))
	}
}
