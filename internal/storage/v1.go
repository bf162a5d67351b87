package storage

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// unlimitedBPS is a bandwidth limit no device reaches.
const unlimitedBPS = 1 << 60

// v1 is cgroup v1: blkio's throttle files and memory.limit_in_bytes, in
// one directory per controller.
type v1 struct{}

func (v1) limit(dirs map[string]string, d Device, p Profile) error {
	files := []struct {
		name string
		v    int64
	}{
		{"blkio.throttle.read_iops_device", p.ReadIOPS},
		{"blkio.throttle.write_iops_device", p.WriteIOPS},
		{"blkio.throttle.read_bps_device", p.ReadBPS},
		{"blkio.throttle.write_bps_device", p.WriteBPS},
	}
	if p.ReadIOPS <= 0 && p.WriteIOPS <= 0 && p.ReadBPS <= 0 && p.WriteBPS <= 0 {
		// The kernel keeps a device's throttle counters only once some
		// cgroup limits it: a limit no device reaches (1 EiB/s) turns them
		// on for a profile without IO limits (nvme), in dbmeter's cgroup.
		files[2].v = unlimitedBPS
	}
	for _, f := range files {
		if f.v <= 0 {
			continue
		}
		path := filepath.Join(dirs["blkio"], f.name)
		if err := writeFile(path, fmt.Sprintf("%s %d", d.ID(), f.v)); err != nil {
			return fmt.Errorf("limit device %s (%s) in %s: %w", d.Name, d.ID(), path, err)
		}
	}
	if p.MemoryBytes > 0 {
		path := filepath.Join(dirs["memory"], "memory.limit_in_bytes")
		if err := writeFile(path, strconv.FormatInt(p.MemoryBytes, 10)); err != nil {
			return fmt.Errorf("limit memory in %s: %w", path, err)
		}
	}
	return nil
}

// counters reads blkio's throttle counters, which count every IO the
// group's processes submitted to the device, throttled or not.
func (v1) counters(dirs map[string]string, d Device) (Counters, error) {
	var c Counters
	dir := dirs["blkio"]
	bytes, err := readV1Stat(filepath.Join(dir, "blkio.throttle.io_service_bytes"), d)
	if err != nil {
		return c, err
	}
	ios, err := readV1Stat(filepath.Join(dir, "blkio.throttle.io_serviced"), d)
	if err != nil {
		return c, err
	}
	return Counters{ReadBytes: bytes["Read"], WriteBytes: bytes["Write"], ReadIOs: ios["Read"], WriteIOs: ios["Write"]}, nil
}

// readV1Stat reads a blkio stat file's lines for device d, "254:0 Read
// 4096", as a map from the operation to its value. A device the group has
// not done IO on has no lines: all zero.
func readV1Stat(path string, d Device) (map[string]int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read the IO counters: %w", err)
	}
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 3 || fs[0] != d.ID() {
			continue
		}
		n, err := strconv.ParseInt(fs[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("read the IO counters: %s: %q is not a number", path, sc.Text())
		}
		out[fs[1]] = n
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the IO counters: %w", err)
	}
	return out, nil
}
