package kv

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestPutKey(t *testing.T) {
	tests := []struct {
		size int
		i    uint64
		want string
	}{
		{9, 0, "000000000"},
		{9, 42, "000000042"},
		{3, 999, "999"},
	}
	for _, tt := range tests {
		k := make([]byte, tt.size)
		putKey(k, tt.i)
		if string(k) != tt.want {
			t.Errorf("putKey(%d bytes, %d) = %q, want %q", tt.size, tt.i, k, tt.want)
		}
	}
}

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

func FuzzReplayAOF(f *testing.F) {
	var a aof
	a.add(aofSet, []byte("key"), bytes.Repeat([]byte("v"), 300))
	f.Add(a.buf)
	f.Add([]byte{aofSet, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		n := replayAOF(data, func(op byte, k, v []byte) {
			if op != aofSet && op != aofDel {
				t.Fatalf("replay applied op %q", op)
			}
		})
		if n < 0 || n > len(data) {
			t.Fatalf("replay covered %d of %d bytes", n, len(data))
		}
	})
}

func FuzzSplitParams(f *testing.F) {
	f.Add("badger.value_threshold=64")
	f.Add("btree:memory.degree=8")
	f.Add("=.")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := SplitParams([]string{s})
		if err != nil {
			return
		}
		for engine := range got {
			if !knownEngine(engine) {
				t.Fatalf("SplitParams(%q) accepted unknown engine %q", s, engine)
			}
		}
	})
}

// Every engine's name makes a directory for its template and its cells:
// a name may hold ':' or '/' (cznic/kv's template once failed to be made).
func TestDirPatternEveryEngine(t *testing.T) {
	root := t.TempDir()
	for _, name := range Names() {
		for _, prefix := range []string{"", "template-"} {
			dir, err := os.MkdirTemp(root, prefix+dirPattern(name))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if filepath.Dir(dir) != root {
				t.Errorf("%s: %s is not directly under %s", name, dir, root)
			}
		}
	}
}
