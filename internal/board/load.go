package board

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dbmeter/dbmeter/internal/study"
)

// entry is one document given to the board.
type entry struct {
	file      string
	doc       *study.Document
	study     *study.Study
	published *Published
	version   string
}

// name is the machine's name on the board: publish's label, else the
// file's name without its extension.
func (e *entry) name() string {
	if e.published != nil && e.published.Label != "" {
		return e.published.Label
	}
	return strings.TrimSuffix(strings.TrimSuffix(filepath.Base(e.file), ".gz"), ".json")
}

// ReadFile reads a document, gunzipping a *.gz one (the example's
// documents are committed compressed: a quick s5 run is 3.6 MB of JSON,
// most of it histograms).
func ReadFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return data, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer zr.Close()
	data, err = io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// WriteFile writes a document, gzipped when path ends in .gz.
func WriteFile(path string, data []byte) error {
	if strings.HasSuffix(path, ".gz") {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression) // the level is valid
		if _, err := zw.Write(data); err != nil {
			return fmt.Errorf("compress %s: %w", path, err)
		}
		if err := zw.Close(); err != nil {
			return fmt.Errorf("compress %s: %w", path, err)
		}
		data = b.Bytes()
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// key is what makes two documents comparable, as the Phoronix Test
// Suite's comparison hash: the study file, the dbmeter version and every
// step's command line.
func (e *entry) key() string {
	parts := []string{e.doc.Study, e.doc.SHA256, e.version}
	for _, st := range e.doc.Steps {
		parts = append(parts, st.ID+"="+st.Command)
	}
	return strings.Join(parts, "\x00")
}

// Files lists the documents a board reads: each argument a file, or a
// directory whose *.json files are read (not its subdirectories).
func Files(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", a, err)
		}
		if !fi.IsDir() {
			out = append(out, a)
			continue
		}
		for _, pat := range []string{"*.json", "*.json.gz"} {
			m, err := filepath.Glob(filepath.Join(a, pat))
			if err != nil {
				return nil, fmt.Errorf("list %s: %w", a, err)
			}
			out = append(out, m...)
		}
	}
	return out, nil
}

// read reads one document; a document the board cannot use returns the
// one line that says why.
func read(path string) (*entry, string) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, fmt.Sprintf("%s: refused: cannot read it: %v", path, err)
	}
	doc, ps := ValidateStudy(data)
	if len(ps) > 0 {
		more := ""
		if len(ps) > 1 {
			more = fmt.Sprintf(" (and %d more problems)", len(ps)-1)
		}
		return nil, fmt.Sprintf("%s: refused: %s%s", path, ps[0], more)
	}
	if sum := sha256.Sum256([]byte(doc.Text)); hex.EncodeToString(sum[:]) != doc.SHA256 {
		return nil, fmt.Sprintf("%s: refused: the study file it holds does not have the SHA-256 it names (%s): the document was edited", path, short(doc.SHA256))
	}
	s, err := study.Parse(doc.File, []byte(doc.Text))
	if err != nil {
		return nil, fmt.Sprintf("%s: refused: the study file it holds does not parse: %s", path, strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	e := &entry{file: path, doc: doc, study: s, version: "unknown"}
	for _, st := range doc.Steps {
		if st.Result != nil {
			e.version = st.Result.Tool.Version
			break
		}
	}
	var head struct {
		Published *Published `json:"published"`
	}
	if json.Unmarshal(data, &head) == nil {
		e.published = head.Published
	}
	return e, ""
}

// group picks the largest set of comparable documents (ties: the one run
// last) and says, one line each, why every other document is apart.
func group(es []*entry) (main []*entry, apart []string) {
	by := map[string][]*entry{}
	var keys []string
	for _, e := range es {
		k := e.key()
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], e)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := by[keys[i]], by[keys[j]]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		return latest(a) > latest(b)
	})
	if len(keys) == 0 {
		return nil, nil
	}
	main = by[keys[0]]
	ref := main[0]
	for _, k := range keys[1:] {
		for _, e := range by[k] {
			apart = append(apart, e.file+": shown apart: "+whyApart(e, ref))
		}
	}
	return main, apart
}

func latest(es []*entry) string {
	var t string
	for _, e := range es {
		if s := e.doc.StartedAt.UTC().Format("2006-01-02T15:04:05"); s > t {
			t = s
		}
	}
	return t
}

// whyApart says in one line what makes e not comparable with the board's
// documents (of which ref is one).
func whyApart(e, ref *entry) string {
	switch {
	case e.doc.Study != ref.doc.Study:
		return fmt.Sprintf("study %s (%s), the board's is %s: another study", e.doc.Study, e.doc.Title, ref.doc.Study)
	case e.doc.SHA256 != ref.doc.SHA256:
		return fmt.Sprintf("an edited study file (sha256 %s, the board's %s): %s", short(e.doc.SHA256), short(ref.doc.SHA256), Changes(e.study, ref.study))
	case e.version != ref.version:
		return fmt.Sprintf("another dbmeter version (%s, the board's %s): a figure's definition may have changed between them", e.version, ref.version)
	}
	if e.doc.Quick != ref.doc.Quick {
		return fmt.Sprintf("the %s form of the study, the board's ran the %s form", form(e.doc.Quick), form(ref.doc.Quick))
	}
	for _, st := range e.doc.Steps {
		i := slices.IndexFunc(ref.doc.Steps, func(r study.StepRun) bool { return r.ID == st.ID })
		if i < 0 {
			return fmt.Sprintf("step %s, which the board's documents do not have", st.ID)
		}
		if c := ref.doc.Steps[i].Command; c != st.Command {
			return fmt.Sprintf("step %s ran %q, the board's %q", st.ID, st.Command, c)
		}
	}
	return fmt.Sprintf("its steps are not the board's (%d steps, the board's %d)", len(e.doc.Steps), len(ref.doc.Steps))
}

func form(quick bool) string {
	if quick {
		return "quick"
	}
	return "full"
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Changes says what differs between two versions of a study file, step
// by step, table by table and claim by claim, in one line.
func Changes(old, cur *study.Study) string {
	var out []string
	steps := map[string]study.Step{}
	for _, s := range old.Steps {
		steps[s.ID] = s
	}
	for _, s := range cur.Steps {
		o, ok := steps[s.ID]
		switch {
		case !ok:
			out = append(out, "step "+s.ID+" added")
		case o.Run != s.Run || o.Quick != s.Quick:
			out = append(out, fmt.Sprintf("step %s's command line changed (%s)", s.ID, wordDiff(o.Run+" "+o.Quick, s.Run+" "+s.Quick)))
		}
		delete(steps, s.ID)
	}
	for id := range steps {
		out = append(out, "step "+id+" removed")
	}
	out = append(out, changedIDs("table", tableIDs(old), tableIDs(cur))...)
	out = append(out, changedIDs("claim", claimIDs(old), claimIDs(cur))...)
	if len(out) == 0 {
		out = append(out, "the same steps, tables and claims; the text differs (wording, published notes)")
	}
	sort.Strings(out)
	if len(out) > 8 {
		out = append(out[:8], fmt.Sprintf("and %d more changes", len(out)-8))
	}
	return strings.Join(out, "; ")
}

func tableIDs(s *study.Study) map[string]string {
	m := map[string]string{}
	for _, t := range s.Tables {
		t.Published = yaml.Node{} // its lines move when anything above moves; its values are in the rows
		b, _ := json.Marshal(t)
		rows, _ := json.Marshal(t.PublishedRows())
		m[t.ID] = string(b) + string(rows)
	}
	return m
}

func claimIDs(s *study.Study) map[string]string {
	m := map[string]string{}
	for _, c := range s.Claims {
		b, _ := json.Marshal(c)
		m[c.ID] = string(b)
	}
	return m
}

func changedIDs(what string, old, cur map[string]string) []string {
	var out []string
	for id, v := range cur {
		o, ok := old[id]
		switch {
		case !ok:
			out = append(out, what+" "+id+" added")
		case o != v:
			out = append(out, what+" "+id+" changed")
		}
	}
	for id := range old {
		if _, ok := cur[id]; !ok {
			out = append(out, what+" "+id+" removed")
		}
	}
	return out
}

// wordDiff says which words of a command line went and came: "-a +b".
func wordDiff(old, cur string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, w := range strings.Fields(s) {
			m[w]++
		}
		return m
	}
	o, c := count(old), count(cur)
	var out []string
	for _, w := range strings.Fields(old) {
		if o[w] > c[w] {
			out = append(out, "-"+w)
			o[w]--
		}
	}
	o = count(old)
	for _, w := range strings.Fields(cur) {
		if c[w] > o[w] {
			out = append(out, "+"+w)
			c[w]--
		}
	}
	if len(out) == 0 {
		return "the same words in another order"
	}
	return strings.Join(out, " ")
}
