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
		// seed 003's 16,000 IOPS on 16 vCPUs, on 2 CPUs.
		{in: "provisioned", want: Profile{Name: "provisioned", ReadIOPS: 2000, WriteIOPS: 2000}},
		{in: "hdd,wiops=50", want: Profile{Name: "hdd", ReadIOPS: 150, WriteIOPS: 50, ReadBPS: 200 << 20, WriteBPS: 200 << 20}},
		{in: "riops=200,wbps=10M,mem=1G", want: Profile{Name: "custom", ReadIOPS: 200, WriteBPS: 10 << 20, MemoryBytes: 1 << 30}},
		{in: "", err: "is empty"},
		{in: "hddd", err: "hdd"},         // the closest name suggested
		{in: "hdd,iops=5", err: "riops"}, // an unknown key lists the known ones
		{in: "riops=fast", err: "not a count or size"},
		{in: "mem=1M", err: "below 64M"},
		{in: "hdd,200", err: "not key=value"},
	} {
		got, err := Parse(tc.in, 2)
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
	for _, p := range Named(8) {
		if !p.Limited() {
			continue
		}
		back, err := Parse(p.String(), 8)
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
