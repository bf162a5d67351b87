package study

import (
	"fmt"
	"net"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Evidences are the measured checks a claim's premise may name.
var Evidences = []string{"cache_misses", "device_reads", "different_servers", "different_storage", "measured_seconds"}

// premise checks claim c's premises in turn: ok when the evidence shows
// every one; otherwise why names the first that it does not show.
func (v *View) premise(c *Claim) (ok bool, why string) {
	for _, p := range c.premises() {
		if ok, why := v.onePremise(c, p); !ok {
			return false, why
		}
	}
	return true, ""
}

// onePremise checks premise p of claim c from the runs of its cells: ok
// when the evidence shows it (or a cell has no runs, which its own reason
// explains); otherwise why names the premise and what the evidence
// showed.
func (v *View) onePremise(c *Claim, p *Premise) (ok bool, why string) {
	refs := p.Cells
	if len(refs) == 0 {
		refs = claimRefs(c)
	}
	var runs [][]*result.Run
	for _, r := range refs {
		cell, found := v.cell(r)
		if !found || len(cell.runs) == 0 {
			return true, "" // no runs: the cell's own reason says why
		}
		runs = append(runs, cell.runs)
	}
	var shown bool
	var evidence string
	switch p.Evidence {
	case "cache_misses":
		shown, evidence = cacheMisses(refs, runs, p.Above, p.Below)
	case "device_reads":
		shown, evidence = deviceReads(refs, runs, p.Above, p.Below)
	case "different_servers":
		shown, evidence = differentServers(refs, runs)
	case "different_storage":
		shown, evidence = differentStorage(refs, runs)
	case "measured_seconds":
		shown, evidence = measuredSeconds(refs, runs, *p.Above)
	}
	if !shown {
		return false, fmt.Sprintf("its premise (%s) is not met here: %s", oneLine(p.What), evidence)
	}
	return true, ""
}

// claimRefs are the full [table, row, column] cells a claim reads.
func claimRefs(c *Claim) []Ref {
	var out []Ref
	for _, r := range append(append([]Ref{c.A, c.B, c.Cell}, c.Cells...), c.Leaders...) {
		if len(r) == 3 {
			out = append(out, r)
		}
	}
	return out
}

// cacheMisses is the share of each cell's block reads that missed the
// server's buffer cache (pg_stat_database's blks_read over blks_hit +
// blks_read, over the cell's runs): a workload is IO-bound only where
// reads leave the cache.
func cacheMisses(refs []Ref, runs [][]*result.Run, least, most *float64) (bool, string) {
	var parts []string
	ok := true
	for i, rs := range runs {
		var hit, read float64
		for _, r := range rs {
			if r.ServerStats != nil {
				hit += r.ServerStats.Database["blks_hit"]
				read += r.ServerStats.Database["blks_read"]
			}
		}
		if hit+read == 0 {
			return false, fmt.Sprintf("%s has no pg_stat_database block counts", refs[i])
		}
		share := read / (hit + read)
		parts = append(parts, fmt.Sprintf("%s missed the buffer cache on %.2g %% of %s block reads", refs[i], 100*share, num(hit+read)))
		ok = ok && (least == nil || share >= *least) && (most == nil || share <= *most)
	}
	var need []string
	if least != nil {
		need = append(need, fmt.Sprintf("at least %.2g %%", 100**least))
	}
	if most != nil {
		need = append(need, fmt.Sprintf("at most %.2g %%", 100**most))
	}
	return ok, fmt.Sprintf("%s (the premise needs %s)", strings.Join(parts, "; "), strings.Join(need, " and "))
}

// deviceReads is the read IOs the device counted per operation of each
// cell (device_read_ios, recorded under a storage profile): an IO-bound
// workload reads the device, one in memory does not.
func deviceReads(refs []Ref, runs [][]*result.Run, least, most *float64) (bool, string) {
	var parts []string
	ok := true
	for i, rs := range runs {
		var ios, ops float64
		counted := false
		for _, r := range rs {
			if x, has := r.Extra["device_read_ios"]; has {
				ios, counted = ios+x, true
			}
			ops += float64(r.Ops)
		}
		if !counted || ops == 0 {
			return false, fmt.Sprintf("%s has no device read IOs counted (they are counted under a storage profile)", refs[i])
		}
		per := ios / ops
		parts = append(parts, fmt.Sprintf("%s read the device %.3g times per operation", refs[i], per))
		ok = ok && (least == nil || per >= *least) && (most == nil || per <= *most)
	}
	var need []string
	if least != nil {
		need = append(need, "at least "+num(*least))
	}
	if most != nil {
		need = append(need, "at most "+num(*most))
	}
	return ok, fmt.Sprintf("%s (the premise needs %s)", strings.Join(parts, "; "), strings.Join(need, " and "))
}

// measuredSeconds is each cell's measured time, its runs' together: a
// claim about steadiness over minutes needs minutes of operations.
func measuredSeconds(refs []Ref, runs [][]*result.Run, least float64) (bool, string) {
	var parts []string
	ok := true
	for i, rs := range runs {
		var secs float64
		var ops int64
		for _, r := range rs {
			secs, ops = secs+r.DurationS, ops+r.Ops
		}
		parts = append(parts, fmt.Sprintf("%s measured %s s (%d operations)", refs[i], num(secs), ops))
		ok = ok && secs >= least
	}
	return ok, fmt.Sprintf("%s (the premise needs at least %s s each)", strings.Join(parts, "; "), num(least))
}

// differentServers says whether the cells' runs came from servers that
// differ: on different hosts, or of different versions. Two clusters of
// one host and one version (the port aside) differ in nothing that one
// service differs from another in, so far as the runs record (they do
// not record the servers' settings): they stand for one service, and a
// ratio between them is about 1 by construction, not a finding.
func differentServers(refs []Ref, runs [][]*result.Run) (bool, string) {
	var parts []string
	addrs, kinds := map[string]bool{}, map[string]bool{}
	for i, rs := range runs {
		addr, _, _ := strings.Cut(rs[0].Target, "/")
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr // no port to set aside
		}
		parts = append(parts, fmt.Sprintf("%s ran on %s (%s)", refs[i], addr, rs[0].Server))
		addrs[addr], kinds[host+" "+rs[0].Server] = true, true
	}
	switch {
	case len(addrs) < len(runs):
		return false, strings.Join(parts, "; ") + ": one server"
	case len(kinds) < len(runs):
		return false, strings.Join(parts, "; ") + ": one host and one version, so one kind of server"
	}
	return true, strings.Join(parts, "; ")
}

// differentStorage says whether the cells' runs stood on different
// storage: servers on different hosts, or one host's servers under
// different storage profiles (the study's emulation of two storage
// systems, a deviation the study declares). Two clusters of one host (the
// port aside) under one profile, or none, share its disk: one storage.
func differentStorage(refs []Ref, runs [][]*result.Run) (bool, string) {
	var parts []string
	seen := map[string]bool{}
	for i, rs := range runs {
		addr, _, _ := strings.Cut(rs[0].Target, "/")
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr // no port to set aside
		}
		profile, _ := rs[0].Setting("storage_profile")
		where := "no storage profile"
		if profile != "" {
			where = "storage profile " + profile
		}
		parts = append(parts, fmt.Sprintf("%s ran on host %s under %s", refs[i], host, where))
		seen[host+" "+profile] = true
	}
	if len(seen) < len(runs) {
		return false, strings.Join(parts, "; ") + ": one storage"
	}
	return true, strings.Join(parts, "; ")
}
