package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// One source prints as Text alone; several each under "== name", a blank
// line between them, in order.
func TestTexts(t *testing.T) {
	t.Parallel()
	doc := &result.Document{}
	var one, alone bytes.Buffer
	if err := Texts(&one, []Source{{Name: "a.json", Doc: doc}}); err != nil {
		t.Fatal(err)
	}
	if err := Text(&alone, doc); err != nil {
		t.Fatal(err)
	}
	if one.String() != alone.String() {
		t.Errorf("one source: %q, want Text's %q", one.String(), alone.String())
	}
	var two bytes.Buffer
	if err := Texts(&two, []Source{{Name: "a.json", Doc: doc}, {Name: "b.json", Doc: doc}}); err != nil {
		t.Fatal(err)
	}
	want := "== a.json\n" + alone.String() + "\n== b.json\n" + alone.String()
	if two.String() != want {
		t.Errorf("two sources:\n%s\nwant:\n%s", two.String(), want)
	}
	if strings.Count(two.String(), "== ") != 2 {
		t.Errorf("two sources named %d times", strings.Count(two.String(), "== "))
	}
}
