// Package names checks the names a user lists in a flag (--engines,
// --clients, --ops …) against the known ones, and suggests the closest known
// name for a typo.
package names

import (
	"fmt"
	"strings"
)

// Parse splits a comma-separated list of names (--engines, --clients,
// --ops …) and checks each against known, in order and without duplicates.
// An unknown name is a usage error that suggests the closest known one and
// lists them all. "all" selects every known name. what names the list in
// messages, as the caller's own messages do (a family writes {Field}).
func Parse(what, list string, known []string) ([]string, error) {
	if strings.TrimSpace(list) == "all" {
		return append([]string(nil), known...), nil
	}
	var out, bad []string
	seen := map[string]bool{}
	for _, raw := range strings.Split(list, ",") {
		name := strings.TrimSpace(raw)
		if name == "" {
			continue
		}
		if !contains(known, name) {
			bad = append(bad, name)
			continue
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	if len(bad) > 0 {
		return nil, UnknownAll(what, bad, known)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s is empty: give one or more of %s", what, strings.Join(known, ", "))
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Unknown is the error for a name given to the list what (as Parse names
// it) that is not in known.
func Unknown(what, name string, known []string) error {
	return NotIn(what+" value", name, known)
}

// UnknownAll is Unknown for every bad name of a list at once, each with
// its closest known name, so that one run of the command shows them all.
func UnknownAll(what string, bad, known []string) error {
	if len(bad) == 1 {
		return Unknown(what, bad[0], known)
	}
	parts := make([]string, len(bad))
	for i, name := range bad {
		parts[i] = fmt.Sprintf("%q", name)
		if best := Closest(name, known); best != "" {
			parts[i] += fmt.Sprintf(" (did you mean %q?)", best)
		}
	}
	return fmt.Errorf("unknown %s values %s; known: %s", what, strings.Join(parts, ", "), strings.Join(known, ", "))
}

// NotIn is the error for a name of a kind (an "engine", a "--ops value")
// that is not in known: it suggests the closest known name, if one is near,
// and lists them all.
func NotIn(kind, name string, known []string) error {
	msg := fmt.Sprintf("unknown %s %q", kind, name)
	if best := Closest(name, known); best != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", best)
	}
	return fmt.Errorf("%s; known: %s", msg, strings.Join(known, ", "))
}

// Closest returns the known name nearest to name in edit distance, or one
// it is a prefix of, if it is near enough to be a plausible typo.
func Closest(name string, known []string) string {
	best, bestD := "", len(name)/2+2
	for _, k := range known {
		d := editDistance(strings.ToLower(name), strings.ToLower(k))
		if strings.HasPrefix(k, name) || strings.HasPrefix(name, k) {
			d = min(d, 1) // "map" for "map:memory", "clickhouse-go" for "clickhouse-go-v1"
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
