package study

import (
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// declared checks the names a table takes from the runs' documents
// against what the families declare they record (result.Families): a
// params.NAME it selects by, an extra.NAME or phase.NAME.STAT it shows. A
// name no family records would select no run and leave every cell empty,
// so a renamed setting fails the file here, at its line, not the study's
// run.
func (v *validator) declared(f string, t *Table) {
	if v.families == nil {
		return
	}
	settings := result.DeclaredSettings(v.families)
	for _, by := range []struct{ name, value string }{{"rows", t.Rows}, {"columns", t.Columns}} {
		v.declaredSetting(f+"."+by.name, by.value, settings)
	}
	for k := range t.Where {
		v.declaredSetting(f+".where."+k, k, settings)
	}
	if rest, ok := strings.CutPrefix(t.Figure, "extra."); ok {
		if extras := result.DeclaredExtras(v.families); !result.Matches(rest, extras) {
			v.add(f+".figure", "%q: no family records the extra figure %q%s", t.Figure, rest, didYouMean(rest, extras))
		}
	}
	if rest, ok := strings.CutPrefix(t.Figure, "phase."); ok {
		phase := rest[:max(strings.LastIndex(rest, "."), 0)]
		if phases := result.DeclaredPhases(v.families); phase != "" && !result.Matches(phase, phases) {
			v.add(f+".figure", "%q: no family times a phase %q%s; phases are %s", t.Figure, phase, didYouMean(phase, phases), strings.Join(phases, ", "))
		}
	}
}

// declaredSetting checks one params.NAME against the declared settings.
func (v *validator) declaredSetting(field, name string, settings []string) {
	rest, ok := strings.CutPrefix(name, "params.")
	if !ok || rest == "" || result.Matches(rest, settings) {
		return
	}
	v.add(field, "%q: no family records a setting %q%s", name, rest, didYouMean(rest, settings))
}
