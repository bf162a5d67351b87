package kv

import (
	"bytes"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// xfsDir mounts a small xfs image with reflink for the test and returns
// its mount point; it skips where it cannot (not root, no mkfs.xfs).
func xfsDir(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount an xfs image")
	}
	if _, err := exec.LookPath("mkfs.xfs"); err != nil {
		t.Skip("mkfs.xfs not found: install xfsprogs (apt-get install xfsprogs, or scripts/deps.sh test)")
	}
	tmp := t.TempDir()
	img, mnt := filepath.Join(tmp, "xfs.img"), filepath.Join(tmp, "mnt")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 512<<20); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"mkfs.xfs", "-q", "-m", "reflink=1", img}, {"mount", "-o", "loop", img, mnt}} {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v: %s", cmd, err, out)
		}
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	return mnt
}

func freeBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bfree) * st.Bsize
}

// On xfs with reflink a cell's copy of a template file is a clone: the
// copy takes no new blocks, reads back the same bytes, and a write to it
// leaves the template as it was (copy on write).
func TestCopyFileClonesOnXFS(t *testing.T) {
	dir := xfsDir(t)
	data := make([]byte, 8<<20)
	rand.Read(data)
	from, to := filepath.Join(dir, "template"), filepath.Join(dir, "cell")
	if err := os.WriteFile(from, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syncDirs(dir); err != nil {
		t.Fatal(err)
	}
	free := freeBytes(t, dir)
	if err := copyFile(from, to); err != nil {
		t.Fatal(err)
	}
	if used := free - freeBytes(t, dir); used > 1<<20 {
		t.Errorf("the copy of an 8 MiB file took %d bytes of new blocks: not a clone", used)
	}
	got, err := os.ReadFile(to)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the clone does not read back the template's bytes (%v)", err)
	}
	f, err := os.OpenFile(to, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(make([]byte, 4096), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if back, err := os.ReadFile(from); err != nil || !bytes.Equal(back, data) {
		t.Errorf("a write to the clone changed the template (%v)", err)
	}
}
