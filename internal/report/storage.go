package report

import (
	"fmt"

	"github.com/dbmeter/dbmeter/internal/result"
)

// storageLine says what storage class the runs ran under and what the
// device delivered under it; "" when none.
func storageLine(d result.Disk) string {
	st := d.Storage
	if st == nil {
		return ""
	}
	s := fmt.Sprintf("storage  profile %s (%s) via %s on %s", st.Profile, st.Limits, st.Hierarchy, st.Device)
	switch p := st.Probe; {
	case p == nil:
	case p.Error != "":
		s += "  ·  probe: " + p.Error
	default:
		s += fmt.Sprintf("  ·  probe: %s reads/s, %s writes/s of 4 KiB, one at a time", Count(p.ReadIOPS), Count(p.WriteIOPS))
	}
	if st.Hierarchy == "cgroup v1" {
		s += "  ·  not limited: buffered writes written back later (docs/storage.md)"
	}
	return s
}

// storageSummary is storageLine in a few words for a report header.
func storageSummary(d result.Disk) string {
	st := d.Storage
	if st == nil {
		return ""
	}
	s := fmt.Sprintf("storage profile %s (%s)", st.Profile, st.Limits)
	if p := st.Probe; p != nil && p.Error == "" {
		s += fmt.Sprintf(", probe %s reads/s %s writes/s", Count(p.ReadIOPS), Count(p.WriteIOPS))
	}
	return s
}
