package sysinfo

import (
	"cmp"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
)

// topOthers is how many other processes a result names.
const topOthers = 5

// Monitor watches how busy the machine is while dbmeter runs: it samples
// /proc every period and splits the machine's busy CPU time into
// dbmeter's own (with every process it started: external workers), the
// target server's (processes listening on the loopback ports dbmeter's
// processes are connected to) and everyone else's. It also takes the
// machine reference when asked. Its methods may be called from any
// goroutine.
type Monitor struct {
	self   int
	period time.Duration
	begin  time.Time

	mu      sync.Mutex
	last    snapshot
	first   snapshot
	m       result.Machine
	names   map[string]*nameCPU
	targets targetFinder
	ref     *result.Reference

	stop chan struct{}
	done chan struct{}
}

type nameCPU struct {
	pids  map[int]bool
	ticks uint64
}

// snapshot is the machine's CPU accounts at one moment.
type snapshot struct {
	at       time.Time
	ok       bool // /proc/stat was read
	cpu      cpuTimes
	procs    map[int]proc
	own, tgt map[int]bool
}

// Watch starts watching the machine, sampling every period (at least a
// second: /proc counts CPU time in hundredths of a second). Stop ends it.
func Watch(period time.Duration) *Monitor {
	m := &Monitor{self: os.Getpid(), period: max(period, time.Second), begin: time.Now(),
		names: map[string]*nameCPU{}, stop: make(chan struct{}), done: make(chan struct{})}
	m.m.Start = readLoadAvg()
	m.first = m.snap()
	m.last = m.first
	go m.loop()
	return m
}

func (m *Monitor) loop() {
	defer close(m.done)
	t := time.NewTicker(m.period)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.sample()
		}
	}
}

// snap reads the accounts; the target's processes are looked for among
// the listeners on the ports dbmeter's processes are connected to.
func (m *Monitor) snap() snapshot {
	s := snapshot{at: time.Now(), procs: readProcs()}
	s.cpu, s.ok = readCPUTimes()
	s.own = tree(s.procs, m.self)
	s.tgt = tree(s.procs, m.targets.pids(s.own, s.procs)...)
	for pid := range s.tgt {
		if s.own[pid] {
			delete(s.tgt, pid) // an in-process stand-in is dbmeter's own
		}
	}
	return s
}

// ticksBetween is the CPU time, reaped children's included, that the
// processes of a set used from a to b. A process counts when it is in the
// set at either snapshot, by its own growth: the target's backends are
// only seen while dbmeter is connected to them, so a set that changes
// between a and b must not move a process's whole lifetime in or out of
// the interval. A process that ended in between is in its parent's reaped
// time at b; one that started in between counts from zero; a pid whose
// time went back is a new process under a reused pid.
func ticksBetween(a, b snapshot, inA, inB map[int]bool) uint64 {
	var n uint64
	add := func(pid int) {
		q, ok := b.procs[pid]
		if !ok {
			return
		}
		tb := q.ticks + q.reaped
		if p, ok := a.procs[pid]; ok && p.ticks+p.reaped <= tb {
			tb -= p.ticks + p.reaped
		}
		n += tb
	}
	for pid := range inB {
		add(pid)
	}
	for pid := range inA {
		if !inB[pid] {
			add(pid)
		}
	}
	return n
}

// sample closes one interval.
func (m *Monitor) sample() {
	s := m.snap()
	m.mu.Lock()
	defer m.mu.Unlock()
	iv, ok := m.interval(m.last, s)
	if ok {
		iv.Load1 = readLoadAvg().Load1
		m.m.Intervals = append(m.m.Intervals, iv)
		m.m.MaxOthersCores = max(m.m.MaxOthersCores, iv.OthersCores)
		m.countNames(m.last, s)
	}
	m.last = s
}

// interval is the machine's state from a to b.
func (m *Monitor) interval(a, b snapshot) (result.MachineInterval, bool) {
	secs := b.at.Sub(a.at).Seconds()
	if !a.ok || !b.ok || secs <= 0 || b.cpu.total <= a.cpu.total {
		return result.MachineInterval{}, false
	}
	cores := func(ticks float64) float64 { return max(0, ticks/userHZ/secs) }
	own := float64(ticksBetween(a, b, a.own, b.own))
	tgt := float64(ticksBetween(a, b, a.tgt, b.tgt))
	busy := float64(b.cpu.busy - a.cpu.busy)
	return result.MachineInterval{
		TS:          b.at.Sub(m.begin).Seconds(),
		OwnCores:    cores(own),
		TargetCores: cores(tgt),
		OthersCores: cores(busy - own - tgt),
		StealPct:    100 * float64(b.cpu.steal-a.cpu.steal) / float64(b.cpu.total-a.cpu.total),
	}, true
}

// countNames adds each other process's CPU from a to b to its name's.
func (m *Monitor) countNames(a, b snapshot) {
	for pid, p := range b.procs {
		if b.own[pid] || b.tgt[pid] {
			continue
		}
		// Its own time only: a child it reaped may have been counted
		// under its own name already (cc1 under gcc). A process that
		// lived between two samples is in the total, not in a name.
		// A kernel worker renames itself with its work; a pid whose time
		// went back is a new process under a reused pid.
		d := p.ticks
		if q, ok := a.procs[pid]; ok && q.ticks <= d {
			d -= q.ticks
		}
		if d == 0 {
			continue
		}
		name := p.comm
		if strings.HasPrefix(name, "kworker/") {
			name = "kworker" // kworker/u8:0-events_unbound and its kin
		}
		n := m.names[name]
		if n == nil {
			n = &nameCPU{pids: map[int]bool{}}
			m.names[name] = n
		}
		n.pids[pid] = true
		n.ticks += d
	}
}

// averaged is the run's state as the intervals saw it, each weighted by its
// length. It sums the intervals rather than comparing the first snapshot
// with the last, since the target's processes are recognised only while
// dbmeter is connected to them: at the first and last snapshot they may
// not be, and their time would count as other processes'.
func averaged(ivs []result.MachineInterval) (result.MachineInterval, bool) {
	var out result.MachineInterval
	var prev, total float64
	for _, iv := range ivs {
		w := iv.TS - prev
		prev = iv.TS
		total += w
		out.OwnCores += w * iv.OwnCores
		out.TargetCores += w * iv.TargetCores
		out.OthersCores += w * iv.OthersCores
		out.StealPct += w * iv.StealPct
	}
	if total <= 0 {
		return out, false
	}
	out.TS = prev
	out.OwnCores /= total
	out.TargetCores /= total
	out.OthersCores /= total
	out.StealPct /= total
	return out, true
}

// Stop ends the watch and returns what it saw, the reference taken so far
// included, with Busy judged.
func (m *Monitor) Stop() *result.Machine {
	close(m.stop)
	<-m.done
	m.sample()
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.m
	out.End = readLoadAvg()
	out.Seconds = m.last.at.Sub(m.begin).Seconds()
	if iv, ok := averaged(out.Intervals); ok {
		out.OwnCores, out.TargetCores, out.OthersCores, out.StealPct = iv.OwnCores, iv.TargetCores, iv.OthersCores, iv.StealPct
	} else if iv, ok := m.interval(m.first, m.last); ok {
		out.OwnCores, out.TargetCores, out.OthersCores, out.StealPct = iv.OwnCores, iv.TargetCores, iv.OthersCores, iv.StealPct
	}
	secs := max(out.Seconds, 1e-9)
	for name, n := range m.names {
		out.TopOthers = append(out.TopOthers, result.ProcessCPU{Name: name, Processes: len(n.pids), Cores: float64(n.ticks) / userHZ / secs})
	}
	slices.SortFunc(out.TopOthers, func(x, y result.ProcessCPU) int {
		return cmp.Or(cmp.Compare(y.Cores, x.Cores), cmp.Compare(x.Name, y.Name))
	})
	out.TopOthers = out.TopOthers[:min(len(out.TopOthers), topOthers)]
	out.Reference = m.ref
	out.JudgeBusy()
	return &out
}
