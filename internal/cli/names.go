package cli

import (
	"github.com/dbmeter/dbmeter/internal/names"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// parseNames checks a comma-separated list of names against known, as a
// usage error (names.Parse).
func parseNames(flag, list string, known []string) ([]string, error) {
	out, err := names.Parse(flag, list, known)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return out, nil
}

// unknownName is the usage error for a name that is not in known.
func unknownName(flag, name string, known []string) error {
	return usage.Wrap(names.Unknown(flag, name, known))
}
