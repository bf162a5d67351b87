package sysinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/dbmeter/dbmeter/internal/result"
)

// fsNames maps statfs magic numbers to the names mount(8) uses.
var fsNames = map[int64]string{
	unix.EXT4_SUPER_MAGIC:      "ext4",
	unix.XFS_SUPER_MAGIC:       "xfs",
	unix.BTRFS_SUPER_MAGIC:     "btrfs",
	unix.TMPFS_MAGIC:           "tmpfs",
	unix.OVERLAYFS_SUPER_MAGIC: "overlay",
	unix.NFS_SUPER_MAGIC:       "nfs",
	unix.F2FS_SUPER_MAGIC:      "f2fs",
}

// Disk describes the filesystem holding path and the block device under
// it, as far as /sys tells. Unknown facts stay empty. It does not probe.
func Disk(path string) result.Disk {
	d := result.Disk{Path: path}
	if abs, err := filepath.Abs(path); err == nil {
		d.Path = abs
	}
	var sfs unix.Statfs_t
	if err := unix.Statfs(path, &sfs); err == nil {
		if name, ok := fsNames[int64(sfs.Type)]; ok {
			d.FS = name
		} else {
			d.FS = fmt.Sprintf("0x%x", sfs.Type)
		}
	}
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err == nil {
		describeDevice(&d, "/sys", unix.Major(st.Dev), unix.Minor(st.Dev))
	}
	return d
}

// describeDevice fills in the block device major:minor from sysfs (a
// root, "/sys", so tests can give a tree of their own). A partition's
// facts live in its disk's directory, one level up.
func describeDevice(d *result.Disk, sys string, major, minor uint32) {
	dir, err := filepath.EvalSymlinks(fmt.Sprintf("%s/dev/block/%d:%d", sys, major, minor))
	if err != nil {
		return // no block device: tmpfs, overlay, NFS
	}
	if _, err := os.Stat(filepath.Join(dir, "partition")); err == nil {
		dir = filepath.Dir(dir)
	}
	d.Device = filepath.Base(dir)
	d.Rotational = readTrim(filepath.Join(dir, "queue", "rotational")) == "1"
	// SCSI, SATA and NVMe expose device/model; eMMC and SD cards device/name.
	for _, f := range []string{"device/model", "device/name"} {
		if m := readTrim(filepath.Join(dir, f)); m != "" {
			d.Model = m
			break
		}
	}
	if drv, err := filepath.EvalSymlinks(filepath.Join(dir, "device", "driver")); err == nil {
		d.Driver = filepath.Base(drv)
	}
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
