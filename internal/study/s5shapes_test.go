package study

import (
	"strings"
)

// derivedTable is the source's copy of a table that repeats another
// table's published figures: s5's tables of the harness's shape
// (X-harness-throughput, the whole of X-throughput) and its shapes tables
// (X-shapes-ENGINE: the engine's column of X-throughput in both the
// harness and the cells column). Rows are in the order the study file
// lists them: set, get, setmixed, getmixed, del.
func derivedTable(article map[string]articleTable, id string) (articleTable, bool) {
	if base, ok := strings.CutSuffix(id, "-harness-throughput"); ok {
		src, ok := article[base+"-throughput"]
		if !ok {
			return articleTable{}, false
		}
		return reorderRows(src, func(header []string, row []string) string {
			return strings.Join(row, " ")
		}, strings.Join(strings.Fields(strings.SplitN(src.text, "\n", 2)[0]), " ")), true
	}
	i := strings.Index(id, "-shapes-")
	if i < 0 {
		return articleTable{}, false
	}
	src, ok := article[id[:i]+"-throughput"]
	if !ok {
		return articleTable{}, false
	}
	slug := id[i+len("-shapes-"):]
	col := -1
	header := strings.Fields(strings.SplitN(src.text, "\n", 2)[0])
	for j, h := range header {
		if engineSlug(h) == slug {
			col = j
		}
	}
	if col < 0 {
		return articleTable{}, false
	}
	return reorderRows(src, func(_ []string, row []string) string {
		return row[0] + " " + row[col+1] + " " + row[col+1]
	}, "harness cells"), true
}

// engineSlug is a published column label as the shapes tables' ids spell
// the engine.
func engineSlug(label string) string {
	name := map[string]string{"leveldb": "goleveldb", "kv": "cznic-kv", "btree/memory": "btree-memory", "map/memory": "map-memory"}[label]
	if name == "" {
		name = label
	}
	return name
}

// reorderRows returns src's rows in the order set, get, setmixed,
// getmixed, del, each as line makes it, under header.
func reorderRows(src articleTable, line func(header, row []string) string, header string) articleTable {
	lines := strings.Split(src.text, "\n")
	byLabel := map[string][]string{}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		byLabel[f[0]] = f
	}
	out := []string{header}
	for _, op := range []string{"set", "get", "setmixed", "getmixed", "del"} {
		out = append(out, line(strings.Fields(lines[0]), byLabel[op]))
	}
	return articleTable{unit: src.unit, text: strings.Join(out, "\n")}
}
