package study

import (
	"strings"
	"testing"
)

// TestSyntaxErrorLine: a YAML syntax error is placed on the line that is
// wrong, not where the block around it began (the library says the
// latter: a bad indent in the claims list is "line 19", where the list
// starts).
func TestSyntaxErrorLine(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, old, new, want string }{
		{"indent in a list item", "    kind: threshold\n", "     kind: threshold\n", "t.yaml:21: not YAML: "},
		{"dedent in a mapping", "    unit: ops/s\n", "   unit: ops/s\n", "t.yaml:14: not YAML: "},
		{"unclosed flow list", `    header: ["null"]`, `    header: ["null"`, "t.yaml:15: not YAML: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(goodStudy, tt.old, tt.new, 1)
			if text == goodStudy {
				t.Fatal("nothing replaced")
			}
			_, err := Parse("t.yaml", []byte(text))
			es, ok := err.(Errors)
			if !ok || len(es) != 1 || !strings.HasPrefix(es[0].Error(), tt.want) {
				t.Errorf("got %v, want one mistake starting %q", err, tt.want)
			}
		})
	}
}

// TestFiveMistakesOnePass: five mistakes of five kinds (an unknown key, a
// value of the wrong type, an unknown step, a wrong unit, a claim's cell
// naming no row) are all reported by one parse, each with its line and
// field, in the order of the file.
func TestFiveMistakesOnePass(t *testing.T) {
	t.Parallel()
	text := goodStudy
	for _, r := range [][2]string{
		{"title: test\n", "titel: test\n"},
		{"step: a\n", "step: b\n"},
		{"unit: ops/s", "unit: ms"},
		{"    published:\n", "    multiply: lots\n    published:\n"},
		{`cells: [[tp, noop, "null"]]`, `cells: [[tp, nop, "null"]]`},
	} {
		if !strings.Contains(text, r[0]) {
			t.Fatalf("%q is not in the study", r[0])
		}
		text = strings.Replace(text, r[0], r[1], 1)
	}
	_, err := Parse("t.yaml", []byte(text))
	es, _ := err.(Errors)
	want := []string{
		`t.yaml:2: titel: unknown key "titel": did you mean title?`,
		`t.yaml:10: tables[0].step: "b" is not a step of this study`,
		`t.yaml:14: tables[0].unit: "ms" is not a unit of throughput`,
		"t.yaml:16: tables[0].multiply: cannot read text `lots` as a number",
		`t.yaml:23: claims[0].cells[0]: "nop" is not a row of table tp`,
	}
	if len(es) != len(want) {
		t.Fatalf("%d mistakes, want %d:\n%v", len(es), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(es[i].Error(), w) {
			t.Errorf("mistake %d: %q, want it to start %q", i, es[i].Error(), w)
		}
	}
}
