package cli

import (
	"errors"
	"os"
	"runtime/pprof"
)

// profiler writes a CPU profile of dbmeter itself, so a user who suspects
// the client can see where its CPU went.
type profiler struct {
	path string
	f    *os.File
}

func (p *profiler) start() error {
	if p.path == "" {
		return nil
	}
	f, err := os.Create(p.path)
	if err != nil {
		return usagef("cannot write --cpuprofile %s: %v", p.path, errors.Unwrap(err))
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return usagef("cannot start the CPU profile: %v", err)
	}
	p.f = f
	return nil
}

func (p *profiler) stop() {
	if p.f != nil {
		pprof.StopCPUProfile()
		p.f.Close()
	}
}
