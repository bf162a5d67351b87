package sysinfo

import (
	"fmt"
	"io"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// WriteVersion prints what `dbmeter version` says: this build (the facts a
// result's "tool" records) and the versions of modules, the linked ones of
// which are listed: with all every linked module, otherwise the measurement
// library and modules, which the caller gathers from the registries of
// engines, drivers and clients (the modules whose version changes the
// numbers). A replaced module shows its replacement.
func WriteVersion(w io.Writer, all bool, modules []string) {
	WriteBuild(w, Tool())
	if all {
		mods := Modules()
		for _, p := range slices.Sorted(maps.Keys(mods)) {
			fmt.Fprintf(w, "  %-45s %s\n", p, mods[p])
		}
		return
	}
	var deps []*debug.Module
	if bi, ok := debug.ReadBuildInfo(); ok {
		deps = bi.Deps
	}
	writeModules(w, deps, append([]string{measurementModule}, modules...))
}

// writeModules lists, sorted and once each, the modules that deps (what
// the binary links) holds, with their version; a replaced module shows its
// replacement.
func writeModules(w io.Writer, deps []*debug.Module, modules []string) {
	linked := map[string]string{}
	for _, d := range deps {
		linked[d.Path] = d.Version
		if r := d.Replace; r != nil {
			linked[d.Path] = strings.TrimSpace(d.Version + " => " + strings.TrimSpace(r.Path+" "+r.Version))
		}
	}
	paths := slices.Clone(modules)
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		if v, ok := linked[p]; ok {
			fmt.Fprintf(w, "  %-45s %s\n", p, v)
		}
	}
}

// measurementModule records every latency dbmeter reports, whatever the
// family: its version changes every figure.
const measurementModule = "github.com/HdrHistogram/hdrhistogram-go"

// WriteBuild says which dbmeter t is.
func WriteBuild(w io.Writer, t result.Tool) {
	tags := "no build tags"
	if len(t.Tags) > 0 {
		tags = "tags " + strings.Join(t.Tags, ",")
	}
	fmt.Fprintf(w, "dbmeter %s (%s %s/%s, %s)\n", t.Version, t.Go, runtime.GOOS, runtime.GOARCH, tags)
	switch {
	case t.Revision != "":
		state := "clean checkout"
		if t.Modified {
			state = "with uncommitted changes"
		}
		fmt.Fprintf(w, "  commit %s %s, %s\n", t.Revision, t.RevisionTime, state)
	case t.Version == "devel":
		fmt.Fprintln(w, "  no VCS stamp (go run, go test, -buildvcs=false or a linked git worktree): results will not say which commit made them; build with `make build` in a clone")
	}
}
