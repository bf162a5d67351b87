package board

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/study"
)

// A document of another study, of an edited study file, of another
// dbmeter version or with a failed step, and one that breaks the schema,
// are each shown apart, left out or refused, with one line saying why;
// none of their figures is counted.
func TestApartAndRefusedDocuments(t *testing.T) {
	dir := t.TempDir()
	text, sum := tinyStudy(t, nil)
	good := func(name string, x float64) string {
		return write(t, dir, name, studyDoc(t, machine{name: name, cpuNs: 5e6, map_: reps(x, 10), btr: reps(x/2, 5)}, text, sum))
	}
	files := []string{good("one", 1000), good("two", 1100)}

	edited, esum := tinyStudy(t, func(s string) string {
		return strings.Replace(s, "set: [1000, 500]", "set: [1200, 500]", 1)
	})
	files = append(files, write(t, dir, "edited", studyDoc(t, machine{cpuNs: 5e6, map_: reps(77777, 1)}, edited, esum)))

	other, osum := tinyStudy(t, func(s string) string { return strings.Replace(s, "id: tiny", "id: other", 1) })
	od := studyDoc(t, machine{cpuNs: 5e6, map_: reps(77777, 1)}, other, osum)
	od.Study = "other"
	files = append(files, write(t, dir, "other", od))

	vd := studyDoc(t, machine{cpuNs: 5e6, map_: reps(77777, 1)}, text, sum)
	vd.Steps[0].Result.Tool.Version = "v-older"
	files = append(files, write(t, dir, "older", vd))

	fd := studyDoc(t, machine{cpuNs: 5e6, map_: reps(77777, 1), btr: reps(77777, 1)}, text, sum)
	fd.Steps[0].Error = "exit status 1"
	files = append(files, write(t, dir, "failed", fd))

	bad := studyDoc(t, machine{cpuNs: 5e6, map_: reps(1000, 10)}, text, sum)
	bad.Steps[0].Result.Runs[0].OpsPerS = -3
	files = append(files, write(t, dir, "negative", bad))

	tampered := studyDoc(t, machine{cpuNs: 5e6, map_: reps(1000, 10)}, text, sum)
	tampered.Text += "\n# edited by hand\n"
	files = append(files, write(t, dir, "tampered", tampered))

	b, err := Build(files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := append(append(append([]string{}, b.Refused...), b.Apart...), b.Notes...)
	for _, want := range []string{
		"edited.json: shown apart: an edited study file (sha256 " + esum[:12] + ", the board's " + sum[:12] + "): table set changed",
		"other.json: shown apart: study other (A tiny study for the board's tests), the board's is tiny: another study",
		"older.json: shown apart: another dbmeter version (v-older, the board's v-test)",
		"failed: step cpu failed (exit status 1): its cells are missing, never counted",
		"negative.json: refused: steps[0] (cpu).result.runs[0] (map/set): throughput_ops_s -3 is negative",
		"tampered.json: refused: the study file it holds does not have the SHA-256 it names",
	} {
		if !containsPrefix(lines, filepath.Join(dir, want), want) {
			t.Errorf("no line %q in:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	for _, l := range lines {
		if strings.Contains(l, "\n") {
			t.Errorf("a reason of more than one line: %q", l)
		}
	}
	if len(b.Machines) != 3 {
		t.Errorf("%d machines on the board, want one, two and failed", len(b.Machines))
	}
	var page bytes.Buffer
	if err := WriteHTML(&page, b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.String(), "77777") || strings.Contains(page.String(), "77.8k") {
		t.Error("a figure of a document not counted is on the page")
	}
	for _, c := range b.Cells {
		if v := c.Values[2]; v.present() {
			t.Errorf("the failed step's %s cell counted: %v", c.Col, v.V)
		}
	}
}

func containsPrefix(lines []string, wants ...string) bool {
	for _, l := range lines {
		for _, w := range wants {
			if strings.HasPrefix(l, w) {
				return true
			}
		}
	}
	return false
}

// A document whose file is not JSON is refused with one line.
func TestNotJSONRefused(t *testing.T) {
	dir := t.TempDir()
	text, sum := tinyStudy(t, nil)
	p := filepath.Join(dir, "notjson.json")
	if err := os.WriteFile(p, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := write(t, dir, "good", studyDoc(t, machine{cpuNs: 5e6, map_: reps(1000, 10)}, text, sum))
	b, err := Build([]string{p, good}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Refused) != 1 || !strings.HasPrefix(b.Refused[0], p+": refused: wrong shape:") {
		t.Errorf("refused %q", b.Refused)
	}
	data, _ := json.Marshal(b.Refused)
	if bytes.Contains(data, []byte(`\n`)) {
		t.Error("a refusal of more than one line")
	}
}

// The board's documents are marked stale when they ran a built-in study
// that this dbmeter has since edited, saying what changed.
func TestStaleBuiltin(t *testing.T) {
	s5, err := study.Load("s5")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(s5.Text, "--duration 50ms --warmup 10ms --repeat 3\n", "--duration 40ms --warmup 10ms --repeat 3\n", 1)
	sum := sha256.Sum256([]byte(text))
	doc := studyDoc(t, machine{cpuNs: 5e6, map_: reps(1000, 10)}, text, hex.EncodeToString(sum[:]))
	doc.Study, doc.File, doc.Steps[0].ID = "s5", "builtin/s5.yaml", "nofsync"
	b, err := Build([]string{write(t, t.TempDir(), "old", doc)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "this dbmeter's built-in s5 differs: step nofsync"; !strings.Contains(b.Stale, want) || !strings.Contains(b.Stale, "command line changed (-40ms +50ms)") {
		t.Errorf("stale %q, want it to say %q", b.Stale, want)
	}
}
