package study

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// validator collects every mistake of a file with the line it is on.
type validator struct {
	file  string
	lines map[string]int // field path → line
	errs  Errors
}

// index records the line of every field path under n: tables[2].unit.
func (v *validator) index(n *yaml.Node, path string) {
	if _, ok := v.lines[path]; !ok {
		v.lines[path] = n.Line
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := n.Content[i].Value
			if path != "" {
				p = path + "." + p
			}
			v.lines[p] = n.Content[i].Line
			v.index(n.Content[i+1], p)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			v.index(c, fmt.Sprintf("%s[%d]", path, i))
		}
	}
}

// add records a mistake at field, on the line of the field or of its
// nearest parent that is in the file.
func (v *validator) add(field, format string, args ...any) {
	line, p := 0, field
	for {
		if l, ok := v.lines[p]; ok {
			line = l
			break
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	if line == 0 {
		line = 1
	}
	v.errs = append(v.errs, Error{File: v.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) required(field, value string) {
	if strings.TrimSpace(value) == "" {
		v.add(field, "missing: it is required")
	}
}

func (v *validator) study(s *Study) {
	v.required("id", s.ID)
	v.required("title", s.Title)
	v.required("source", s.Source)
	if len(s.Steps) == 0 {
		v.add("steps", "missing: a study runs at least one step")
	}
	envs := v.environments(s)
	steps := map[string]bool{}
	for i := range s.Steps {
		st := &s.Steps[i]
		f := fmt.Sprintf("steps[%d]", i)
		st.runLine, st.quickLine = v.lines[f+".run"], v.lines[f+".quick"]
		v.required(f+".id", st.ID)
		if steps[st.ID] {
			v.add(f+".id", "%q is used by an earlier step", st.ID)
		}
		steps[st.ID] = true
		v.command(f+".run", st.Run, true)
		v.command(f+".quick", st.Quick, false)
	}
	tables := map[string]*Table{}
	for i := range s.Tables {
		t := &s.Tables[i]
		f := fmt.Sprintf("tables[%d]", i)
		v.required(f+".id", t.ID)
		if tables[t.ID] != nil {
			v.add(f+".id", "%q is used by an earlier table", t.ID)
		}
		tables[t.ID] = t
		v.table(f, t, steps, envs)
	}
	for i := range s.Claims {
		v.claim(fmt.Sprintf("claims[%d]", i), &s.Claims[i], tables)
	}
	v.verdictFields(s, tables) // validate_verdicts.go
}

func (v *validator) environments(s *Study) map[string]bool {
	envs := map[string]bool{}
	for i, e := range s.Environments {
		f := fmt.Sprintf("environments[%d]", i)
		v.required(f+".id", e.ID)
		if envs[e.ID] {
			v.add(f+".id", "%q is used by an earlier environment", e.ID)
		}
		envs[e.ID] = true
	}
	return envs
}

// command checks a step's command line: a dbmeter subcommand, with its
// placeholders known. (Its flags, and that it sets none that study run
// sets itself, the CLI checks: CheckSteps.)
func (v *validator) command(field, line string, required bool) {
	if strings.TrimSpace(line) == "" {
		if required {
			v.add(field, "missing: a dbmeter command line (kv, pg, ch or null, and its flags)")
		}
		return
	}
	words := strings.Fields(line)
	if words[0] == "dbmeter" {
		words = words[1:]
	}
	if len(words) == 0 || !slices.Contains([]string{"kv", "pg", "ch", "null"}, words[0]) {
		v.add(field, "%q is not a dbmeter benchmark: start with kv, pg, ch or null", line)
	}
	for _, w := range words {
		if name, _ := placeholder(w); strings.HasPrefix(w, "{") && strings.HasSuffix(w, "}") && !slices.Contains(Placeholders(), name) {
			v.add(field, "unknown placeholder %s: known are %s", w, strings.Join(Placeholders(), ", "))
		}
	}
}

func (v *validator) table(f string, t *Table, steps, envs map[string]bool) {
	v.required(f+".title", t.Title)
	v.required(f+".unit", t.Unit)
	for _, id := range t.StepIDs() {
		if !steps[id] {
			v.add(f+".step", "%q is not a step of this study", id)
		}
	}
	if t.Environment != "" && !envs[t.Environment] {
		v.add(f+".environment", "%q is not an environment of this study", t.Environment)
	}
	for _, by := range []struct{ name, value string }{{"rows", t.Rows}, {"columns", t.Columns}} {
		if !isField(by.value) {
			v.add(f+"."+by.name, "%q is not a run field: use %s, or params.NAME", by.value, strings.Join(fieldNames, ", "))
		}
	}
	for k := range t.Where {
		if !isField(k) {
			v.add(f+".where."+k, "not a run field: use %s, or params.NAME", strings.Join(fieldNames, ", "))
		}
	}
	if _, ok := convert(t.Figure, t.Unit); !ok {
		v.add(f+".figure", "%q in %q is not a figure dbmeter measures in that unit: use %s (latency in ns, µs, ms or s; rates in ops/s, rows/s, k rows/s, MB/s)", t.Figure, t.Unit, strings.Join(figureNames(), ", "))
	}
	if len(t.Header) == 0 {
		v.add(f+".header", "missing: the published column labels, in order")
	}
	v.published(f, t)
}

// published reads the table's published mapping: row label → one number
// (or null) per column.
func (v *validator) published(f string, t *Table) {
	n := &t.Published
	if n.Kind == 0 {
		v.add(f+".published", "missing: row label: [one value per column]")
		return
	}
	if n.Kind != yaml.MappingNode {
		v.add(f+".published", "want a mapping of row label to a list of values")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		label, list := n.Content[i].Value, n.Content[i+1]
		field := f + ".published." + label
		if list.Kind != yaml.SequenceNode {
			v.add(field, "want a list of %d values, one per column", len(t.Header))
			continue
		}
		if len(list.Content) != len(t.Header) {
			v.add(field, "%d values for %d columns (header)", len(list.Content), len(t.Header))
		}
		row := Row{Label: label, line: n.Content[i].Line}
		for j, c := range list.Content {
			if c.Tag == "!!null" {
				row.Values = append(row.Values, nil)
				continue
			}
			x, err := strconv.ParseFloat(strings.ReplaceAll(c.Value, "_", ""), 64)
			if err != nil || c.Kind != yaml.ScalarNode {
				v.add(fmt.Sprintf("%s[%d]", field, j), "%q is not a number", c.Value)
				continue
			}
			row.Values = append(row.Values, &x)
		}
		t.rows = append(t.rows, row)
	}
}

func (v *validator) claim(f string, c *Claim, tables map[string]*Table) {
	v.required(f+".id", c.ID)
	v.required(f+".text", c.Text)
	ref := func(field string, r Ref) {
		if len(r) != 3 {
			v.add(field, "want [table, row, column]")
			return
		}
		t := tables[r[0]]
		if t == nil {
			v.add(field, "%q is not a table of this study", r[0])
			return
		}
		if !slices.ContainsFunc(t.rows, func(x Row) bool { return x.Label == r[1] }) {
			v.add(field, "%q is not a row of table %s", r[1], r[0])
		}
		if !slices.Contains(t.Header, r[2]) {
			v.add(field, "%q is not a column of table %s", r[2], r[0])
		}
	}
	switch c.Kind {
	case "threshold":
		if c.Above == nil && c.Below == nil {
			v.add(f+".above", "a threshold needs above, below or both")
		}
	case "ratio":
		ref(f+".a", c.A)
		ref(f+".b", c.B)
		if c.Above == nil && c.Below == nil {
			v.add(f+".above", "a ratio needs above, below or both")
		}
	case "ranking":
		if len(c.Cells) < 2 {
			v.add(f+".cells", "a ranking orders at least two cells, highest first")
		}
	case "lowest", "highest":
		ref(f+".cell", c.Cell)
		if len(c.Cells) == 0 {
			v.add(f+".cells", "the cells the one cell is compared with")
		}
	default:
		if !v.claimKind(f, c, tables) { // validate_verdicts.go
			v.add(f+".kind", "%q: use %s", c.Kind, strings.Join(ClaimKinds, ", "))
		}
	}
	for i, r := range c.Cells {
		ref(fmt.Sprintf("%s.cells[%d]", f, i), r)
	}
}
