package script

import (
	"fmt"
	"sort"
	"strings"
)

// builtin is one of pgbench's built-in scripts, word for word.
type builtin struct{ name, desc, src string }

func builtins() []builtin {
	const sets = `\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
`
	return []builtin{
		{"tpcb-like", "<builtin: TPC-B (sort of)>", sets + `BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
`},
		{"simple-update", "<builtin: simple update>", sets + `BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
`},
		{"select-only", "<builtin: select only>", `\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
`},
	}
}

// Predefined returns the variables every client has before its script
// runs, as in pgbench.
func Predefined() []string { return []string{"scale", "client_id", "random_seed", "default_seed"} }

// BuiltinNames lists the built-in scripts.
func BuiltinNames() []string {
	var out []string
	for _, b := range builtins() {
		out = append(out, b.name)
	}
	sort.Strings(out)
	return out
}

// matching returns the built-in script called name, or every one name is
// a prefix of, as pgbench matches -b and --show-script.
func matching(name string) []builtin {
	var found []builtin
	for _, b := range builtins() {
		if b.name == name {
			return []builtin{b}
		}
		if strings.HasPrefix(b.name, name) && name != "" {
			found = append(found, b)
		}
	}
	return found
}

// ShowBuiltin returns what pgbench --show-script prints for the built-in
// script called name (or an unambiguous prefix of it).
func ShowBuiltin(name string) (string, error) {
	found := matching(name)
	if len(found) != 1 {
		var list strings.Builder
		for _, b := range builtins() {
			fmt.Fprintf(&list, "\n%15s: %s", b.name, b.desc)
		}
		return "", fmt.Errorf("no builtin script found for name %q; available builtin scripts:%s", name, list.String())
	}
	b := found[0]
	return fmt.Sprintf("-- %s: %s\n%s\n", b.name, b.desc, b.src), nil
}

// Builtin parses the built-in script called name, or an unambiguous prefix
// of it as pgbench allows ("select" for select-only). It returns the full
// name. extra names variables defined with -D.
func Builtin(name string, extra []string) (string, *Script, error) {
	return BuiltinIn(NewNames(append(Predefined(), extra...)...), name)
}

// BuiltinIn is Builtin parsing into the run's shared namespace ns.
func BuiltinIn(ns *Names, name string) (string, *Script, error) {
	found := matching(name)
	switch len(found) {
	case 0:
		return "", nil, fmt.Errorf("no built-in script %q (built-in scripts: %s)", name, strings.Join(BuiltinNames(), ", "))
	case 1:
	default:
		return "", nil, fmt.Errorf("built-in script %q is ambiguous (built-in scripts: %s)", name, strings.Join(BuiltinNames(), ", "))
	}
	b := found[0]
	s, err := ParseIn(ns, b.desc, b.src)
	if err != nil {
		panic(fmt.Sprintf("built-in script %s does not parse: %v", b.name, err))
	}
	return b.name, s, nil
}
