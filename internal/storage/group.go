package storage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Counters are the IOs and bytes the kernel counted for a group on its
// device.
type Counters struct {
	ReadBytes  int64 `json:"read_bytes"`
	WriteBytes int64 `json:"write_bytes"`
	ReadIOs    int64 `json:"read_ios"`
	WriteIOs   int64 `json:"write_ios"`
}

// Sub is c - o: what was counted between two readings.
func (c Counters) Sub(o Counters) Counters {
	return Counters{c.ReadBytes - o.ReadBytes, c.WriteBytes - o.WriteBytes, c.ReadIOs - o.ReadIOs, c.WriteIOs - o.WriteIOs}
}

// backend is one cgroup hierarchy's files: the limits it writes and the
// counters it reads in dbmeter's cgroup directories.
type backend interface {
	limit(dirs map[string]string, d Device, p Profile) error
	counters(dirs map[string]string, d Device) (Counters, error)
}

// Group is dbmeter's cgroup (one directory per v1 controller, or one v2
// directory), with the limits of a profile on one device.
type Group struct {
	info Info
	b    backend
	l    Layout
	// dirs maps each controller ("blkio", "memory"; "" for v2) to the
	// directory dbmeter made.
	dirs map[string]string
	// origins holds, per process moved in, per controller, the cgroup it
	// came from.
	origins map[int]map[string]string
	first   int // the first process moved in
}

// Info is what a group applies, for the result document.
type Info struct {
	Profile   Profile  `json:"profile"`
	Hierarchy string   `json:"hierarchy"` // "cgroup v1", "cgroup v2"
	Device    Device   `json:"device"`
	Cgroups   []string `json:"cgroups"`
	// Unenforced says what the kernel does not hold to the profile.
	Unenforced []string `json:"unenforced,omitempty"`
}

// Info returns what the group applies.
func (g *Group) Info() Info { return g.info }

// NamePrefix starts the name of every cgroup dbmeter makes,
// "dbmeter-PID-RANDOM": Sweep knows a leftover by it and its dead PID.
const NamePrefix = "dbmeter-"

// make creates the group's directories, named for this process, and
// writes the profile's limits; on any failure it removes what it made.
func (g *Group) make(parents map[string]string, d Device) error {
	name := fmt.Sprintf("%s%d-%08x", NamePrefix, os.Getpid(), rand.Uint32())
	g.dirs = map[string]string{}
	for ctrl, parent := range parents {
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			err = errors.Join(refusalOf(fmt.Errorf("make cgroup %s: %w", dir, err)), g.Remove())
			return err
		}
		g.dirs[ctrl] = dir
		g.info.Cgroups = append(g.info.Cgroups, dir)
	}
	slices.Sort(g.info.Cgroups)
	if err := g.b.limit(g.dirs, d, g.info.Profile); err != nil {
		return errors.Join(refusalOf(err), g.Remove())
	}
	return nil
}

// refusalOf turns a permission error into the refusal it is.
func refusalOf(err error) error {
	if errors.Is(err, os.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return &Refusal{Reason: "no permission to make or write cgroups (run as root): " + err.Error()}
	}
	return err
}

// Add moves process pid, with all its threads, into the group.
func (g *Group) Add(pid int) error {
	from := map[string]string{}
	for ctrl := range g.dirs {
		if o, err := g.l.origin(pid, ctrl); err == nil {
			from[ctrl] = o
		}
	}
	if g.origins == nil {
		g.origins, g.first = map[int]map[string]string{}, pid
	}
	g.origins[pid] = from
	for _, dir := range g.dirs {
		if err := writeFile(filepath.Join(dir, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return fmt.Errorf("move process %d into %s: %w", pid, dir, err)
		}
	}
	return nil
}

// Release moves process pid, added before, back to where it came from.
func (g *Group) Release(pid int) error {
	for ctrl, dir := range g.dirs {
		to, ok := g.origins[pid][ctrl]
		if !ok {
			to = filepath.Dir(dir)
		}
		if err := writeFile(filepath.Join(to, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return fmt.Errorf("move process %d back to %s: %w", pid, to, err)
		}
	}
	delete(g.origins, pid)
	return nil
}

// Counters reads what the kernel counted for the group on its device.
func (g *Group) Counters() (Counters, error) { return g.b.counters(g.dirs, g.info.Device) }

// Remove moves every process still in the group back to where it came
// from (a process it forked, to where its first process came from) and
// removes the group's directories. It may be called more than once.
func (g *Group) Remove() error {
	var errs []error
	for ctrl, dir := range g.dirs {
		back := filepath.Dir(dir)
		if o, ok := g.origins[g.first][ctrl]; ok {
			back = o
		}
		if err := g.empty(dir, ctrl, back); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := removeDir(dir); err != nil {
			errs = append(errs, err)
			continue
		}
		delete(g.dirs, ctrl)
	}
	return errors.Join(errs...)
}

// empty moves the processes in dir back: each to its own origin, else to back.
func (g *Group) empty(dir, ctrl, back string) error {
	pids, err := procs(dir)
	if err != nil {
		return err
	}
	for _, pid := range pids {
		to := back
		if o, ok := g.origins[pid][ctrl]; ok {
			to = o
		}
		if err := writeFile(filepath.Join(to, "cgroup.procs"), strconv.Itoa(pid)); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("move process %d back to %s: %w", pid, to, err)
		}
	}
	return nil
}

// removeDir removes a cgroup directory, waiting a little for a process
// that just exited to leave it (the kernel frees it after the exit).
func removeDir(dir string) error {
	var err error
	for range 50 {
		if err = syscall.Rmdir(dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if !errors.Is(err, syscall.EBUSY) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("remove cgroup %s: %w", dir, err)
}

// procs lists the processes in a cgroup directory.
func procs(dir string) ([]int, error) {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("list the processes in %s: %w", dir, err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out, nil
}

// writeFile writes one value to a cgroup file, which takes it in one write.
func writeFile(path, value string) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(value)
	return errors.Join(err, f.Close())
}

// Record is the group as the result document records it, with what was
// placed in it and the probe (or why the probe failed).
func (g *Group) Record(target string, pr ProbeResult, perr error) *result.Storage {
	i := g.info
	st := &result.Storage{
		Profile: i.Profile.Name, Limits: i.Profile.String(), Source: i.Profile.Source,
		Hierarchy: i.Hierarchy, Device: i.Device.Name + " " + i.Device.ID(), Cgroups: i.Cgroups,
		Target: target, Unenforced: i.Unenforced,
		Probe: &result.StorageProbe{Method: pr.Method, ReadIOPS: pr.ReadIOPS, WriteIOPS: pr.WriteIOPS, ReadOps: pr.ReadOps, WriteOps: pr.WriteOps},
	}
	if pr.Counted != nil {
		st.Probe.CountedReadIOs, st.Probe.CountedWriteIOs = pr.Counted.ReadIOs, pr.Counted.WriteIOs
	}
	if perr != nil {
		st.Probe.Error = perr.Error()
	}
	return st
}
