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
