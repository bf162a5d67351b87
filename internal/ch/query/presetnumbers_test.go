package query

import "testing"

// numbers-int reads the eight integer columns seed 002's author's select
// scripts read, in their order; both numbers presets are sized by rows.
func TestNumbersIntPreset(t *testing.T) {
	for _, c := range []struct{ preset, want string }{
		{"numbers", "SELECT u8, u16, u32, u64, i8, i16, i32, i64, f32, f64 FROM d.numbers LIMIT 7"},
		{"numbers-int", "SELECT i8, i16, i32, i64, u8, u16, u32, u64 FROM d.numbers LIMIT 7"},
	} {
		p, ok := Presets()[c.preset]
		if !ok {
			t.Fatalf("no preset %s", c.preset)
		}
		if got := p.Spec("d", Ranges{Rows: 7}).SQL; got != c.want {
			t.Errorf("%s: %s, want %s", c.preset, got, c.want)
		}
		if !readsNumbers(c.preset) {
			t.Errorf("%s is not sized by SelectRows", c.preset)
		}
	}
	if readsNumbers("select1k") {
		t.Error("select1k sized by SelectRows")
	}
}
