package report

import "sort"

// Units are every unit a figure can be shown in (a study table's unit),
// sorted.
func Units() []string {
	var out []string
	for _, us := range figureUnits {
		for u := range us {
			out = append(out, u)
		}
	}
	sort.Strings(out)
	return out
}

// Units are the units f can be shown in, sorted; nil for a figure shown
// in whatever unit its table names (extra.NAME).
func (f Figure) Units() []string {
	if f.Base == "" {
		return nil
	}
	var out []string
	for u := range figureUnits[f.Base] {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}
