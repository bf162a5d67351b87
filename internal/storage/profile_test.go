package storage

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Profile // Name and limits; Source is not compared
		err  string
	}{
		{in: "hdd", want: Profile{Name: "hdd", ReadIOPS: 150, WriteIOPS: 150, ReadBPS: 200 << 20, WriteBPS: 200 << 20}},
		{in: "nvme", want: Profile{Name: "nvme"}},
		{in: "nvme,mem=256M", want: Profile{Name: "nvme", MemoryBytes: 256 << 20}},
		// Its IOPS wait for the device's probe (ScaleByProbe).
		{in: "provisioned", want: Profile{Name: "provisioned", byProbe: true}},
		{in: "provisioned,riops=300", want: Profile{Name: "provisioned", ReadIOPS: 300, byProbe: true}},
		{in: "hdd,wiops=50", want: Profile{Name: "hdd", ReadIOPS: 150, WriteIOPS: 50, ReadBPS: 200 << 20, WriteBPS: 200 << 20}},
		{in: "riops=200,wbps=10M,mem=1G", want: Profile{Name: "custom", ReadIOPS: 200, WriteBPS: 10 << 20, MemoryBytes: 1 << 30}},
		{in: "", err: "is empty"},
		{in: "hddd", err: "hdd"},         // the closest name suggested
		{in: "hdd,iops=5", err: "riops"}, // an unknown key lists the known ones
		{in: "riops=fast", err: "not a count or size"},
		{in: "mem=1M", err: "below 64M"},
		{in: "hdd,200", err: "not key=value"},
	} {
		got, err := Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Parse(%q) = %v, want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got.Source == "" {
			t.Errorf("Parse(%q) says nothing of where its numbers come from", tc.in)
		}
		got.Source = ""
		if got != tc.want {
			t.Errorf("Parse(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestProfileStringParsesBack(t *testing.T) {
	for _, p := range Named() {
		if !p.Limited() {
			continue
		}
		back, err := Parse(p.String())
		if err != nil {
			t.Fatalf("%s: Parse(%q): %v", p.Name, p.String(), err)
		}
		back.Name, back.Source = p.Name, p.Source
		if back != p {
			t.Errorf("%s spelled %q parses back as %+v", p.Name, p.String(), back)
		}
	}
}

func TestSizes(t *testing.T) {
	for in, want := range map[string]int64{"200": 200, "4k": 4096, "64M": 64 << 20, "2GiB": 2 << 30, "1T": 1 << 40} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	if got := FormatSize(200 << 20); got != "200M" {
		t.Errorf("FormatSize(200 MiB) = %q", got)
	}
}

// The provisioned profile keeps seed 003's ratio, 16,000 provisioned IOPS
// to a local NVMe's 100,000, against what this device delivered to the
// probe without limits: reads scaled from reads, writes from writes, a
// limit the user gave kept, never 0 (which would be no limit), and no
// scaling from a probe that measured nothing.
func TestScaleByProbe(t *testing.T) {
	probe := func(r, w float64) ProbeResult { return ProbeResult{ReadIOPS: r, WriteIOPS: w, Method: "test"} }
	for _, tc := range []struct {
		profile     string
		base        ProbeResult
		read, write int64
		err         string
	}{
		{profile: "provisioned", base: probe(7000, 2000), read: 1120, write: 320},
		{profile: "provisioned", base: probe(100_000, 100_000), read: 16_000, write: 16_000}, // seed 003's own NVMe
		{profile: "provisioned,riops=300", base: probe(7000, 2000), read: 300, write: 320},
		{profile: "provisioned,riops=300,wiops=50", base: probe(0, 0), read: 300, write: 50}, // nothing left to scale
		{profile: "provisioned", base: probe(3, 2), read: 1, write: 1},
		{profile: "provisioned", base: probe(7000, 0), err: "nothing to scale"},
		{profile: "hdd", base: probe(7000, 2000), read: 150, write: 150},
	} {
		p, err := Parse(tc.profile)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.ScaleByProbe(tc.base)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s scaled by %+v: %v, want an error with %q", tc.profile, tc.base, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s scaled by %+v: %v", tc.profile, tc.base, err)
			continue
		}
		if got.ReadIOPS != tc.read || got.WriteIOPS != tc.write || got.NeedsProbe() {
			t.Errorf("%s scaled by %+v: riops=%d wiops=%d (needs probe: %v), want riops=%d wiops=%d",
				tc.profile, tc.base, got.ReadIOPS, got.WriteIOPS, got.NeedsProbe(), tc.read, tc.write)
		}
		if p.NeedsProbe() && !strings.Contains(got.Source, "reads/s") && !strings.Contains(got.Source, "writes/s") {
			t.Errorf("%s: the source does not say what the probe measured: %s", tc.profile, got.Source)
		}
	}
}
