package study

import "strings"

// Labels a server may be given with to study run: clickhouse-legacy=DSN
// serves {clickhouse-legacy}. A DSN without one serves {pg} or
// {clickhouse} by its scheme.
const (
	LabelPG     = "pg"
	LabelModern = "clickhouse"
	LabelLegacy = "clickhouse-legacy"
)

// Uses says whether a step of s, in either form, holds the placeholder
// name ("{clickhouse}"), with or without DSN parameters.
func (s *Study) Uses(name string) bool {
	for _, st := range s.Steps {
		for _, w := range strings.Fields(st.Run + " " + st.Quick) {
			if n, _ := placeholder(w); n == name {
				return true
			}
		}
	}
	return false
}

// orEnv names the environment variable that could have given a server,
// unless servers were given to study run, which then stand alone.
func orEnv(sv Servers, name string) string {
	if sv.Given {
		return "; the environment's servers are not used when servers are given"
	}
	return " or " + name
}
