package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// A probe share keeps the probe without limits that a provisioned profile
// is scaled by, for the runs that follow on the same device: a study's
// steps, each a process of its own, then run under one cap probed once.
// Probed again at every step, under the load the step before left (a
// server's checkpoint, the page cache being written back), the cap moved
// from 2,088 to 2,235 to 1,510 read IOs/s within one study.
type sharedProbe struct {
	Device string      `json:"device"`
	At     time.Time   `json:"at"`
	Probe  ProbeResult `json:"probe"`
}

// ReadSharedProbe returns the probe kept at path for device d, and when it
// was taken; ok is false when there is none for d (no file yet, or
// another device's).
func ReadSharedProbe(path string, d Device) (pr ProbeResult, at time.Time, ok bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return pr, at, false, nil
	}
	if err != nil {
		return pr, at, false, fmt.Errorf("read the shared device probe: %w", err)
	}
	var s sharedProbe
	if err := json.Unmarshal(b, &s); err != nil {
		return pr, at, false, fmt.Errorf("read the shared device probe %s: %w", path, err)
	}
	if s.Device != d.ID() {
		return pr, at, false, nil
	}
	return s.Probe, s.At, true, nil
}

// WriteSharedProbe keeps pr, the probe of device d taken at at, at path
// for the runs that follow.
func WriteSharedProbe(path string, d Device, pr ProbeResult, at time.Time) error {
	b, err := json.Marshal(sharedProbe{Device: d.ID(), At: at.UTC(), Probe: pr})
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("keep the device probe for the runs that follow: %w", err)
	}
	return nil
}
