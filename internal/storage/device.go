package storage

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Device is the whole disk under a data directory, which the kernel's IO
// limits name by major:minor (a partition's limits are its disk's).
type Device struct {
	Name  string `json:"name"`
	Major uint32 `json:"major"`
	Minor uint32 `json:"minor"`
}

// ID is the device as the cgroup files spell it, "254:0".
func (d Device) ID() string { return fmt.Sprintf("%d:%d", d.Major, d.Minor) }

// ErrNoDevice says a directory is on no block device (tmpfs, overlay of
// one, a network filesystem): there is nothing to throttle.
var ErrNoDevice = errors.New("no block device")

// DeviceOf returns the disk that holds path, reading sysfs under sys
// ("/sys"; a test gives a tree of its own).
func DeviceOf(path, sys string) (Device, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return Device{}, fmt.Errorf("stat %s: %w", path, err)
	}
	return diskOf(sys, unix.Major(st.Dev), unix.Minor(st.Dev))
}

// diskOf resolves major:minor to its disk: a partition's directory in
// sysfs is under its disk's, which holds the disk's own dev file.
func diskOf(sys string, major, minor uint32) (Device, error) {
	dir, err := filepath.EvalSymlinks(fmt.Sprintf("%s/dev/block/%d:%d", sys, major, minor))
	if err != nil {
		return Device{}, fmt.Errorf("device %d:%d: %w", major, minor, ErrNoDevice)
	}
	if _, err := os.Stat(filepath.Join(dir, "partition")); err == nil {
		dir = filepath.Dir(dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, "dev"))
	if err != nil {
		return Device{}, fmt.Errorf("device %d:%d: read its disk: %w", major, minor, err)
	}
	ma, mi, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
	maj, err1 := strconv.ParseUint(ma, 10, 32)
	min, err2 := strconv.ParseUint(mi, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return Device{}, fmt.Errorf("device %d:%d: its disk's dev file says %q", major, minor, b)
	}
	return Device{Name: filepath.Base(dir), Major: uint32(maj), Minor: uint32(min)}, nil
}
