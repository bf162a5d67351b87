package study

import (
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// declared checks the names a table takes from the runs' documents
// against what the families declare they record (result.Families): a
// params.NAME it selects by, an extra.NAME or phase.NAME.STAT it shows. A
// name no family records would select no run and leave every cell empty,
// so a renamed setting fails the file here, at its line, not the study's
// run. The names are those of the families the table's steps run (a
// kv setting does not select ch runs), or of every family when a step is
// not known (said apart).
func (v *validator) declared(f string, t *Table) {
	fams, of := v.tableFamilies(t)
	for _, by := range []struct{ name, value string }{{"rows", t.Rows}, {"columns", t.Columns}} {
		v.declaredName(f+"."+by.name, by.value, "params.", "a setting", of, result.DeclaredSettings(fams))
	}
	for k := range t.Where {
		v.declaredName(f+".where."+k, k, "params.", "a setting", of, result.DeclaredSettings(fams))
	}
	v.declaredName(f+".figure", t.Figure, "extra.", "the extra figure", of, result.DeclaredExtras(fams))
	if rest, ok := strings.CutPrefix(t.Figure, "phase."); ok {
		phase := "phase." + rest[:max(strings.LastIndex(rest, "."), 0)]
		v.declaredName(f+".figure", phase, "phase.", "a phase", of, result.DeclaredPhases(fams))
	}
}

// tableFamilies are the declarations of the families t's steps run, and
// how a message names them ("no ch step records"); every family's when a
// step's family is not known.
func (v *validator) tableFamilies(t *Table) ([]result.FamilyRecord, string) {
	var names []string
	for _, id := range t.StepIDs() {
		fam, ok := v.stepFamily[id]
		if !ok || fam == "" {
			return v.families, "no family"
		}
		if !slices.Contains(names, fam) {
			names = append(names, fam)
		}
	}
	var out []result.FamilyRecord
	for _, f := range v.families {
		if slices.Contains(names, f.Family) {
			out = append(out, f)
		}
	}
	return out, "no " + strings.Join(names, " or ") + " step"
}

// declaredName checks one name under prefix (params.NAME, extra.NAME,
// phase.NAME) against the names declared.
func (v *validator) declaredName(field, name, prefix, what, of string, declared []string) {
	rest, ok := strings.CutPrefix(name, prefix)
	if prefix == "params." {
		rest = result.SettingName(rest) // a flag's spelling, as field reads it
	}
	if !ok || rest == "" || result.Matches(rest, declared) {
		return
	}
	v.add(field, "%q: %s records %s %q%s", name, of, what, rest, didYouMean(rest, declared))
}

// commandFamily is the family a step's command line runs (kv, pg, ch or
// null); "" when it names none.
func commandFamily(line string) string {
	words := strings.Fields(line)
	if len(words) > 0 && words[0] == "dbmeter" {
		words = words[1:]
	}
	if len(words) == 0 || !slices.Contains([]string{"kv", "pg", "ch", "null"}, words[0]) {
		return ""
	}
	return words[0]
}
