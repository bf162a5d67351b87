package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/plan"
	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// probeTime is how long the probe at the start of a run under a storage
// profile measures the device: half reading, half writing.
const probeTime = time.Second

// Session is a run under a storage profile: dbmeter's cgroup for it with
// the processes placed in it, and what the result document records of it
// (Record). kv and pg use it the same way: Open before the run, Counted
// over the run's plan, Close after it. Its messages name the setting
// {StorageProfile}; the CLI spells it.
type Session struct {
	g      *Group
	Record *result.Storage
}

// Open makes dbmeter's cgroup for profile p on the disk under
// dataDir, after removing what runs that died left, and places pids in it
// (target says what they are, for the result); with no pid it places
// dbmeter itself, so the probe and the engines run under the profile.
// A profile that cannot hold is refused in one line (a usage error).
func Open(ctx context.Context, stderr io.Writer, p *Profile, dataDir, target string, pids ...int) (*Session, error) {
	l, err := Discover()
	if err != nil {
		return nil, fmt.Errorf("{StorageProfile} %s: %w", p.Name, err)
	}
	if removed, err := Sweep(l); len(removed) > 0 || err != nil {
		fmt.Fprintf(stderr, "dbmeter: removed the cgroups of dbmeter runs that died: %s%s\n", strings.Join(removed, ", "), errText(err))
	}
	if p, err = scaleByProbe(ctx, stderr, p, dataDir, len(pids) == 0); err != nil {
		return nil, err
	}
	g, err := Apply(Config{Profile: *p, DataDir: dataDir, Layout: &l})
	var refusal *Refusal
	if errors.As(err, &refusal) {
		return nil, usage.Errorf("{StorageProfile} %s: %w", p.Name, refusal)
	}
	if err != nil {
		return nil, fmt.Errorf("{StorageProfile} %s: %w", p.Name, err)
	}
	self := len(pids) == 0
	if self {
		pids = []int{os.Getpid()}
	}
	for _, pid := range pids {
		if err := g.Add(pid); err != nil {
			return nil, errors.Join(fmt.Errorf("{StorageProfile} %s: %w", p.Name, err), g.Remove())
		}
	}
	var pr ProbeResult
	var perr error
	if self {
		pr, perr = Probe(ctx, dataDir, probeTime, g)
	} else {
		pr, perr = probeBeside(ctx, g)
	}
	return &Session{g: g, Record: g.Record(target, pr, perr)}, nil
}

// scaleByProbe sets the limits a profile takes from the device
// (provisioned): it probes the device under dataDir before any limit
// holds, in dataDir when dbmeter owns it, else (a server's data
// directory, which dbmeter never writes in) in a temporary directory on
// the same device. With p.ProbeShare (a study's steps) the first run
// probes and keeps the probe there, and the later ones scale by it. The
// cap is printed on stderr.
func scaleByProbe(ctx context.Context, stderr io.Writer, p *Profile, dataDir string, own bool) (*Profile, error) {
	if !p.NeedsProbe() {
		return p, nil
	}
	dev, err := DeviceOf(dataDir, "/sys")
	if err != nil {
		return p, nil // no device to probe: Apply refuses the profile in its words
	}
	base, at, shared, err := sharedBase(p, dev)
	if err != nil {
		return nil, err
	}
	if !shared {
		if base, err = probeUnlimited(ctx, p, dataDir, dev, own); err != nil {
			return nil, err
		}
		at = time.Now()
		if p.ProbeShare != "" {
			if err := WriteSharedProbe(p.ProbeShare, dev, base, at); err != nil {
				return nil, err
			}
		}
	}
	scaled, err := p.ScaleByProbe(base)
	if err != nil {
		return nil, fmt.Errorf("{StorageProfile} %s: %w", p.Name, err)
	}
	when := "probed now"
	if p.ProbeShare != "" {
		when = "probed once for this study, at " + at.UTC().Format(time.RFC3339)
		scaled.Source += " (" + when + ")"
	}
	fmt.Fprintf(stderr, "dbmeter: {StorageProfile} %s: riops=%d,wiops=%d, from %s without limits: %.0f reads/s, %.0f writes/s (%s)\n",
		p.Name, scaled.ReadIOPS, scaled.WriteIOPS, dev.Name, base.ReadIOPS, base.WriteIOPS, when)
	return &scaled, nil
}

// sharedBase is the study's probe of dev, when it has one.
func sharedBase(p *Profile, dev Device) (ProbeResult, time.Time, bool, error) {
	if p.ProbeShare == "" {
		return ProbeResult{}, time.Time{}, false, nil
	}
	base, at, ok, err := ReadSharedProbe(p.ProbeShare, dev)
	if err != nil {
		return base, at, false, fmt.Errorf("{StorageProfile} %s: %w", p.Name, err)
	}
	return base, at, ok, nil
}

// probeUnlimited probes dev, the device under dataDir, with no limit: in
// dataDir when dbmeter owns it, else in a temporary directory on dev.
func probeUnlimited(ctx context.Context, p *Profile, dataDir string, dev Device, own bool) (ProbeResult, error) {
	dir := dataDir
	if !own {
		tmp, err := os.MkdirTemp("", "dbmeter-storage-probe-")
		if err != nil {
			return ProbeResult{}, err
		}
		defer os.RemoveAll(tmp)
		if got, err := DeviceOf(tmp, "/sys"); err != nil || got != dev {
			return ProbeResult{}, usage.Errorf("{StorageProfile} %s scales its IOPS by a probe of the server's device %s, and the temporary directory %s is on another: set TMPDIR to a directory on it, or give riops= and wiops=", p.Name, dev.Name, tmp)
		}
		dir = tmp
	}
	base, err := Probe(ctx, dir, probeTime, nil)
	if err != nil {
		return base, fmt.Errorf("{StorageProfile} %s: probe the device without limits: %w", p.Name, err)
	}
	return base, nil
}

// probeBeside probes a server's group from dbmeter, moved in for the
// probe and back out, in a temporary directory of its own on the same
// device: dbmeter writes nothing into the server's data directory.
func probeBeside(ctx context.Context, g *Group) (ProbeResult, error) {
	dir, err := os.MkdirTemp("", "dbmeter-storage-probe-")
	if err != nil {
		return ProbeResult{}, err
	}
	defer os.RemoveAll(dir)
	if d, err := DeviceOf(dir, "/sys"); err != nil || d != g.Info().Device {
		return ProbeResult{}, fmt.Errorf("not run: dbmeter's temporary directory %s is not on the server's device %s", dir, g.Info().Device.Name)
	}
	if err := g.Add(os.Getpid()); err != nil {
		return ProbeResult{}, err
	}
	pr, err := Probe(ctx, dir, probeTime, g)
	return pr, errors.Join(err, g.Release(os.Getpid()))
}

// Counted has every step of p record what the device did for the group
// during its runs.
func (s *Session) Counted(p plan.Plan) plan.Plan {
	for i := range p.Steps {
		run := p.Steps[i].Run
		p.Steps[i].Run = func(ctx context.Context, r plan.Rep) ([]result.Run, error) {
			before, cerr := s.g.Counters()
			start := time.Now()
			runs, err := run(ctx, r)
			after, aerr := s.g.Counters()
			if cerr == nil && aerr == nil {
				RecordIO(runs, after.Sub(before), time.Since(start).Seconds())
			}
			return runs, errors.Join(err, cerr, aerr)
		}
	}
	return p
}

// Close removes dbmeter's cgroup, the processes in it moved back.
func (s *Session) Close() error {
	if s == nil {
		return nil
	}
	if err := s.g.Remove(); err != nil {
		return fmt.Errorf("remove the storage profile's cgroup: %w", err)
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "; could not remove: " + err.Error()
}

// Counters are the device's counters for the session's cgroup so far: kv
// reads them around each cell (kv.Matrix.IO), finer than Counted's steps.
func (s *Session) Counters() (Counters, error) { return s.g.Counters() }
