package storage

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// v2 is the unified hierarchy: io.max, memory.max and io.stat in one
// directory. Its files are tested on a directory laid out like cgroupfs;
// no real v2 kernel has run it (docs/storage.md).
type v2 struct{}

func (v2) limit(dirs map[string]string, d Device, p Profile) error {
	dir := dirs[""]
	var keys []string
	for _, k := range []struct {
		name string
		v    int64
	}{{"riops", p.ReadIOPS}, {"wiops", p.WriteIOPS}, {"rbps", p.ReadBPS}, {"wbps", p.WriteBPS}} {
		if k.v > 0 {
			keys = append(keys, fmt.Sprintf("%s=%d", k.name, k.v))
		}
	}
	if len(keys) > 0 {
		path := filepath.Join(dir, "io.max")
		if err := writeFile(path, d.ID()+" "+strings.Join(keys, " ")); err != nil {
			return fmt.Errorf("limit device %s (%s) in %s: %w", d.Name, d.ID(), path, err)
		}
	}
	if p.MemoryBytes > 0 {
		path := filepath.Join(dir, "memory.max")
		if err := writeFile(path, strconv.FormatInt(p.MemoryBytes, 10)); err != nil {
			return fmt.Errorf("limit memory in %s: %w", path, err)
		}
	}
	return nil
}

// counters reads io.stat's line for the device: "254:0 rbytes=N wbytes=N
// rios=N wios=N dbytes=N dios=N". A device without IO has no line.
func (v2) counters(dirs map[string]string, d Device) (Counters, error) {
	path := filepath.Join(dirs[""], "io.stat")
	f, err := os.Open(path)
	if err != nil {
		return Counters{}, fmt.Errorf("read the IO counters: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || fs[0] != d.ID() {
			continue
		}
		var c Counters
		dst := map[string]*int64{"rbytes": &c.ReadBytes, "wbytes": &c.WriteBytes, "rios": &c.ReadIOs, "wios": &c.WriteIOs}
		for _, kv := range fs[1:] {
			k, v, _ := strings.Cut(kv, "=")
			if p, ok := dst[k]; ok {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return Counters{}, fmt.Errorf("read the IO counters: %s: %q is not a number", path, kv)
				}
				*p = n
			}
		}
		return c, nil
	}
	if err := sc.Err(); err != nil {
		return Counters{}, fmt.Errorf("read the IO counters: %w", err)
	}
	return Counters{}, nil
}

// delegated says whether the v2 cgroup dir lets its children use the io
// and memory controllers. dbmeter does not enable them itself: that would
// change a cgroup it did not make.
func delegated(dir string) (bool, string) {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	if err != nil {
		return false, err.Error()
	}
	have := strings.Fields(string(b))
	var missing []string
	for _, c := range []string{"io", "memory"} {
		if !slices.Contains(have, c) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return false, fmt.Sprintf("%s does not delegate %s to its children (cgroup.subtree_control holds %q)", dir, strings.Join(missing, " and "), strings.TrimSpace(string(b)))
	}
	return true, ""
}
