package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A document recorded before settings were keyed by declared names
// (dbmeter/v1) compares with one written now (dbmeter/v2): written again
// by this dbmeter, the same runs pair up one for one, none "only in" a
// side, and they stay apart once a setting that defines them differs.
func TestCompareV1WithV2(t *testing.T) {
	t.Parallel()
	const recorded = "../result/testdata/v1-null-closed.json.gz" // frozen, unlike testdata/recorded
	dir := t.TempDir()
	raw := gunzip(t, recorded)
	if !bytes.Contains(raw, []byte(`"schema": "dbmeter/v1"`)) || !bytes.Contains(raw, []byte(`"max-in-flight"`)) {
		t.Fatalf("%s is not a v1 document keyed by flag spellings", recorded)
	}
	v1 := filepath.Join(dir, "v1.json")
	if err := os.WriteFile(v1, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(name string, edit func(*result.Document)) string {
		d := readDoc(t, recorded, raw)
		edit(d)
		var buf bytes.Buffer
		if err := result.Write(&buf, d); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), `"schema": "dbmeter/v2"`) || !strings.Contains(buf.String(), `"max_in_flight"`) || strings.Contains(buf.String(), `"max-in-flight"`) {
			t.Fatalf("%s as written now is not a v2 document with declared names", recorded)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	same := write("v2.json", func(*result.Document) {})
	other := write("other.json", func(d *result.Document) {
		for i := range d.Runs {
			d.Runs[i].Params["max_in_flight"] = "7"
		}
	})
	for _, tt := range []struct {
		new    string
		paired bool
	}{{same, true}, {other, false}} {
		srcs, err := ReadSources(v1, tt.new)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err = Compare(&out, srcs[0], srcs[1])
		onlyIn := strings.Count(out.String(), "only in")
		if tt.paired && (err != nil || onlyIn != 0 || !strings.Contains(out.String(), "null null noop")) {
			t.Errorf("compare of the v1 document with itself written as v2: error %v, output:\n%s", err, out.String())
		}
		if !tt.paired && err == nil && onlyIn == 0 {
			t.Errorf("compare of the v1 document with a v2 one of another max_in_flight paired their runs:\n%s", out.String())
		}
	}
}
