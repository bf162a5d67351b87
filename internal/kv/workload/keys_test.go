package workload

import (
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
