package storage

import (
	"path/filepath"
	"testing"
	"time"
)

// A probe kept for one device is read back for it, and not for another;
// no file is no probe, not an error.
func TestSharedProbe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "probe.json")
	sda, sdb := Device{Name: "sda", Major: 8}, Device{Name: "sdb", Major: 8, Minor: 16}
	if _, _, ok, err := ReadSharedProbe(path, sda); ok || err != nil {
		t.Fatalf("before any probe: ok %v, err %v; want none and no error", ok, err)
	}
	at := time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC)
	pr := ProbeResult{Method: "m", ReadIOPS: 2088, WriteIOPS: 700, ReadOps: 1044, WriteOps: 350}
	if err := WriteSharedProbe(path, sda, pr, at); err != nil {
		t.Fatal(err)
	}
	got, gotAt, ok, err := ReadSharedProbe(path, sda)
	if err != nil || !ok || got.ReadIOPS != 2088 || got.WriteIOPS != 700 || !gotAt.Equal(at) {
		t.Errorf("read back %+v at %v, ok %v, err %v; want %+v at %v", got, gotAt, ok, err, pr, at)
	}
	if _, _, ok, err := ReadSharedProbe(path, sdb); ok || err != nil {
		t.Errorf("another device: ok %v, err %v; want none", ok, err)
	}
}
