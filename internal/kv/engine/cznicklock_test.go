package engine

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestFlockPatiently: a lock released within the patience is taken (as
// when a forked child briefly shared the released lock's description);
// one still held past it is refused as busy.
func TestFlockPatiently(t *testing.T) {
	for _, tc := range []struct {
		name      string
		releaseIn time.Duration // <0: never
		wantErr   error
	}{
		{"free", 0, nil},
		{"released in time", 50 * time.Millisecond, nil},
		{"held past the patience", -1, unix.EWOULDBLOCK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "db.lock")
			holder, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			defer holder.Close()
			if tc.releaseIn != 0 {
				if err := unix.Flock(int(holder.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
					t.Fatal(err)
				}
			}
			if tc.releaseIn > 0 {
				time.AfterFunc(tc.releaseIn, func() { unix.Flock(int(holder.Fd()), unix.LOCK_UN) })
			}
			f, err := os.OpenFile(path, os.O_RDWR, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := flockPatiently(f, 500*time.Millisecond); !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Errorf("flockPatiently = %v, want %v", err, tc.wantErr)
			}
		})
	}
}
