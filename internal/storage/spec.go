package storage

import "github.com/dbmeter/dbmeter/internal/usage"

// ParseSpec reads a command's storage profile, spec as the user gave it
// ("" for none: nil), a usage error when it does not parse. probeShare is
// a study's shared probe file (Profile.ProbeShare), "" outside a study.
func ParseSpec(spec, probeShare string) (*Profile, error) {
	if spec == "" {
		return nil, nil
	}
	p, err := Parse(spec)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	p.ProbeShare = probeShare
	return &p, nil
}

// ProbeShareEnv names the variable through which study run gives its steps
// the file that keeps the provisioned profile's probe (Profile.ProbeShare).
const ProbeShareEnv = "DBMETER_STORAGE_PROBE_SHARE"

// SharedProbe is a study step's shared probe file, "" outside a study or
// where getenv is nil.
func SharedProbe(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	return getenv(ProbeShareEnv)
}
