package storage

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/names"
)

// Profile is a storage class: limits on the device behind the data (0 is
// no limit) and on the memory of the processes under test, which the
// kernel charges their page cache to, so that data larger than the limit
// is read from the device.
type Profile struct {
	// Name is the named profile the limits come from, or "custom".
	Name string `json:"name"`
	// ReadIOPS and WriteIOPS bound the IOs per second in each direction.
	ReadIOPS  int64 `json:"read_iops,omitempty"`
	WriteIOPS int64 `json:"write_iops,omitempty"`
	// ReadBPS and WriteBPS bound the bytes per second in each direction.
	ReadBPS  int64 `json:"read_bps,omitempty"`
	WriteBPS int64 `json:"write_bps,omitempty"`
	// MemoryBytes bounds the memory, page cache included.
	MemoryBytes int64 `json:"memory_bytes,omitempty"`
	// Source says where the numbers come from.
	Source string `json:"source"`
	// byProbe marks a profile whose IOPS limits, where not given, come
	// from what the device delivers: ScaleByProbe sets them.
	byProbe bool
	// ProbeShare, when not "", is a file that keeps the probe ScaleByProbe
	// scales by, for the runs that follow on the same device (a study's
	// steps): ReadSharedProbe, WriteSharedProbe.
	ProbeShare string `json:"-"`
}

// Limited says whether the profile limits anything at all.
func (p Profile) Limited() bool {
	return p.ReadIOPS > 0 || p.WriteIOPS > 0 || p.ReadBPS > 0 || p.WriteBPS > 0 || p.MemoryBytes > 0
}

// String spells the profile's limits the way Parse reads them.
func (p Profile) String() string {
	var parts []string
	add := func(k string, v int64, size bool) {
		if v <= 0 {
			return
		}
		if size {
			parts = append(parts, k+"="+FormatSize(v))
		} else {
			parts = append(parts, k+"="+strconv.FormatInt(v, 10))
		}
	}
	add("riops", p.ReadIOPS, false)
	add("wiops", p.WriteIOPS, false)
	add("rbps", p.ReadBPS, true)
	add("wbps", p.WriteBPS, true)
	add("mem", p.MemoryBytes, true)
	if len(parts) == 0 {
		return "unlimited"
	}
	return strings.Join(parts, ",")
}

// Seed 003 compared a local NVMe disk, whose IOPS it puts "from 100k to
// nearly unlimited", with a network disk of 16,000 provisioned IOPS. The
// provisioned profile keeps that ratio against this machine's device.
const (
	seed003IOPS     = 16_000
	seed003NVMeIOPS = 100_000
)

// Named returns the named profiles, in the order they are listed.
// provisioned's IOPS are set by ScaleByProbe, once the device is probed.
func Named() []Profile {
	return []Profile{
		{Name: "hdd", ReadIOPS: 150, WriteIOPS: 150, ReadBPS: 200 << 20, WriteBPS: 200 << 20,
			Source: "a 10,500 rpm SAS disk like seed 004's (Seagate ST900MM0168): 2.9 ms average rotational latency + ~3.8 ms average seek = ~150 random IOs/s; ~200 MiB/s sequential. " +
				"A commit that syncs twice then runs at ~75/s, as seed 004's bbolt, bolt, buntdb, btree and map did (66-70 sets/s)"},
		{Name: "sata-ssd", ReadIOPS: 98000, WriteIOPS: 90000, ReadBPS: 550_000_000, WriteBPS: 520_000_000,
			Source: "the datasheet of a common 6 Gb/s SATA SSD (Samsung 860 EVO: up to 98k/90k random 4 KiB IOPS at queue depth 32, 550/520 MB/s sequential); " +
				"a device that delivers less than that is not made faster"},
		{Name: "nvme", Source: "no limit: the device as it is (seed 003's local NVMe, whose IOPS are not capped)"},
		{Name: "provisioned", byProbe: true,
			Source: fmt.Sprintf("seed 003's network disk of %d provisioned IOPS beside its local NVMe of %d and more: this device's IOPS, probed unlimited at the start, times %d/%d",
				seed003IOPS, seed003NVMeIOPS, seed003IOPS, seed003NVMeIOPS)},
	}
}

// NeedsProbe says whether the profile's limits wait for ScaleByProbe: a
// provisioned profile with a direction's IOPS not given.
func (p Profile) NeedsProbe() bool { return p.byProbe && (p.ReadIOPS == 0 || p.WriteIOPS == 0) }

// ScaleByProbe sets the IOPS limits the profile left to the device: seed
// 003's ratio of provisioned to local IOPS (16,000 to 100,000) times what
// the device delivered to a probe run without limits, reads from its
// reads and writes from its writes, at least 1 (0 would be no limit). A
// limit given on the command line is kept. A probe that measured nothing
// cannot scale anything.
func (p Profile) ScaleByProbe(base ProbeResult) (Profile, error) {
	if !p.NeedsProbe() {
		return p, nil
	}
	if base.ReadIOPS <= 0 || base.WriteIOPS <= 0 {
		return p, fmt.Errorf("the device probe measured %.0f reads/s and %.0f writes/s: nothing to scale %d/%d IOPS by", base.ReadIOPS, base.WriteIOPS, seed003IOPS, seed003NVMeIOPS)
	}
	// From the probe's rate in whole IOs per second, as the source spells it.
	scale := func(probed float64) int64 { return max(1, int64(math.Round(probed)*seed003IOPS/seed003NVMeIOPS+0.5)) }
	var parts []string
	if p.ReadIOPS == 0 {
		p.ReadIOPS = scale(base.ReadIOPS)
		parts = append(parts, fmt.Sprintf("%.0f reads/s × %d/%d = %d read IOPS", base.ReadIOPS, seed003IOPS, seed003NVMeIOPS, p.ReadIOPS))
	}
	if p.WriteIOPS == 0 {
		p.WriteIOPS = scale(base.WriteIOPS)
		parts = append(parts, fmt.Sprintf("%.0f writes/s × %d/%d = %d write IOPS", base.WriteIOPS, seed003IOPS, seed003NVMeIOPS, p.WriteIOPS))
	}
	p.Source += "; this device, probed without limits (" + base.Method + "): " + strings.Join(parts, ", ")
	p.byProbe = false
	return p, nil
}

// NamedList is the names of the named profiles, for messages.
func NamedList() []string {
	var out []string
	for _, p := range Named() {
		out = append(out, p.Name)
	}
	return out
}

// Parse reads a profile: a name (hdd), a name with limits that override
// its own (hdd,mem=256M), or limits alone (riops=200,wiops=100,mem=1G),
// each key one of riops, wiops, rbps, wbps (a size per second) and mem (a
// size: 512M, 2G). Its errors name the setting as {StorageProfile}.
func Parse(s string) (Profile, error) {
	parts := strings.Split(strings.TrimSpace(s), ",")
	if s == "" || parts[0] == "" {
		return Profile{}, fmt.Errorf("{StorageProfile} is empty: give one of %s, or limits such as riops=200,wiops=200,mem=256M", strings.Join(NamedList(), ", "))
	}
	p := Profile{Name: "custom", Source: "limits given on the command line"}
	if !strings.Contains(parts[0], "=") {
		named := Named()
		i := slices.IndexFunc(named, func(n Profile) bool { return n.Name == parts[0] })
		if i < 0 {
			return Profile{}, names.Unknown("{StorageProfile}", parts[0], NamedList())
		}
		p, parts = named[i], parts[1:]
		if len(parts) > 0 {
			p.Source += "; with limits given on the command line: " + strings.Join(parts, ",")
		}
	}
	for _, kv := range parts {
		if err := p.set(kv); err != nil {
			return Profile{}, err
		}
	}
	return p, nil
}

// set applies one key=value limit.
func (p *Profile) set(kv string) error {
	k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
	if !ok {
		return fmt.Errorf("{StorageProfile}: %q is not key=value (keys: riops, wiops, rbps, wbps, mem); a profile name comes first", kv)
	}
	fields := map[string]*int64{"riops": &p.ReadIOPS, "wiops": &p.WriteIOPS, "rbps": &p.ReadBPS, "wbps": &p.WriteBPS, "mem": &p.MemoryBytes}
	dst, ok := fields[k]
	if !ok {
		return names.Unknown("{StorageProfile} key", k, []string{"riops", "wiops", "rbps", "wbps", "mem"})
	}
	n, err := ParseSize(v)
	if err != nil || n < 0 {
		return fmt.Errorf("{StorageProfile}: %s=%s is not a count or size (200, 64M, 2G)", k, v)
	}
	if k == "mem" && n > 0 && n < minMemory {
		return fmt.Errorf("{StorageProfile}: mem=%s is below %s, too little for dbmeter and an engine to start", v, FormatSize(minMemory))
	}
	*dst = n
	return nil
}

// minMemory is the least memory limit accepted: dbmeter itself, its
// histograms and an engine's caches need tens of MiB before any data.
const minMemory = 64 << 20

// ParseSize reads a count or a size with an optional binary suffix K, M,
// G or T (KiB, MiB, ...).
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "B"), "I")
	mult := int64(1)
	if n := len(s); n > 0 {
		if i := strings.IndexByte("KMGT", s[n-1]); i >= 0 {
			mult, s = int64(1)<<(10*(i+1)), s[:n-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, err
	}
	return n * mult, nil
}

// FormatSize spells n with the largest binary suffix that divides it.
func FormatSize(n int64) string {
	for i := 4; i >= 1; i-- {
		if u := int64(1) << (10 * i); n >= u && n%u == 0 {
			return strconv.FormatInt(n/u, 10) + string("KMGT"[i-1])
		}
	}
	return strconv.FormatInt(n, 10)
}
