package study

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dbmeter/dbmeter/internal/names"
	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// validator collects every mistake of a file with the line it is on.
type validator struct {
	file  string
	lines map[string]int // field path → line
	errs  Errors
	// consequence marks the fields whose mistakes follow from one already
	// reported (a misspelled key, a value of the wrong type).
	consequence map[string]bool
	// families declare the names the runs' documents carry, which a
	// table's params.*, extra.* and phase.* must be among
	// (validate_declared.go).
	families []result.FamilyRecord
	// stepFamily is the family each step's command line runs, by step id.
	stepFamily map[string]string
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
		v.stepFamily[st.ID] = commandFamily(st.Run)
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
	if benches := []string{"kv", "pg", "ch", "null"}; len(words) == 0 || !slices.Contains(benches, words[0]) {
		v.add(field, "%q is not a dbmeter benchmark%s: start with kv, pg, ch or null", line, didYouMean(words[0], benches))
	}
	for _, w := range words {
		if name, _ := placeholder(w); strings.HasPrefix(w, "{") && strings.HasSuffix(w, "}") && !slices.Contains(Placeholders(), name) {
			v.add(field, "unknown placeholder %s%s: known are %s", w, didYouMean(name, Placeholders()), strings.Join(Placeholders(), ", "))
		}
	}
}

func (v *validator) table(f string, t *Table, steps, envs map[string]bool) {
	v.required(f+".title", t.Title)
	v.required(f+".unit", t.Unit)
	for _, id := range t.StepIDs() {
		if !steps[id] {
			v.add(f+".step", "%q is not a step of this study%s", id, didYouMean(id, keysOf(steps)))
		}
	}
	if t.Environment != "" && !envs[t.Environment] {
		v.add(f+".environment", "%q is not an environment of this study%s", t.Environment, didYouMean(t.Environment, keysOf(envs)))
	}
	for _, by := range []struct{ name, value string }{{"rows", t.Rows}, {"columns", t.Columns}} {
		if !isField(by.value) {
			v.add(f+"."+by.name, "%q is not a run field%s: use %s, or params.NAME", by.value, didYouMean(by.value, fieldNames), strings.Join(fieldNames, ", "))
		}
	}
	for k := range t.Where {
		if !isField(k) {
			v.add(f+".where."+k, "not a run field%s: use %s, or params.NAME", didYouMean(k, fieldNames), strings.Join(fieldNames, ", "))
		}
	}
	v.figureAndUnit(f, t)
	v.declared(f, t)
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
	ref := func(field string, r Ref) { v.cellRef(field, r, tables) }
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
			v.add(f+".kind", "%q is not a kind of claim%s: use %s", c.Kind, didYouMean(c.Kind, ClaimKinds), strings.Join(ClaimKinds, ", "))
		}
	}
	for i, r := range c.Cells {
		ref(fmt.Sprintf("%s.cells[%d]", f, i), r)
	}
}

// figureAndUnit checks a table's figure and its unit each on its own
// line: an unknown figure at figure, an unknown unit or one the figure is
// not measured in at unit, each with the nearest valid name.
func (v *validator) figureAndUnit(f string, t *Table) {
	fig, ok := report.LookupFigure(t.Figure)
	if !ok {
		v.add(f+".figure", "%q is not a figure dbmeter measures%s: use %s", t.Figure, didYouMean(t.Figure, figureNames()), strings.Join(figureNames(), ", "))
		return
	}
	units := fig.Units()
	switch {
	case t.Unit == "" || units == nil || slices.Contains(units, t.Unit):
	case !slices.Contains(report.Units(), t.Unit):
		v.add(f+".unit", "%q is not a unit%s: %s is shown in %s", t.Unit, didYouMean(t.Unit, units), t.Figure, strings.Join(units, ", "))
	default:
		v.add(f+".unit", "%q is not a unit of %s: it is shown in %s", t.Unit, t.Figure, strings.Join(units, ", "))
	}
}

// didYouMean is ", did you mean X?" for the nearest of known, or "".
func didYouMean(name string, known []string) string {
	if best := names.Closest(name, known); best != "" {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return ""
}

// keysOf are the names a set holds, sorted.
func keysOf(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
