package report

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// recordedDocs are real result documents, one per family command as the
// built-in studies' quick forms ran it against the project's servers
// (every step of internal/study/testdata/recorded/sN.json.gz, the
// studies' own recordings) and the commands no study runs
// (testdata/recorded/*.json.gz), named study-step or by file.
func recordedDocs(t *testing.T) map[string]*result.Document {
	t.Helper()
	docs := map[string]*result.Document{}
	// s5b, a second run of s5 for study compare, is left out.
	studies, _ := filepath.Glob("../study/testdata/recorded/s?.json.gz")
	for _, path := range studies {
		var study struct {
			Study string `json:"study"`
			Steps []struct {
				ID     string          `json:"id"`
				Result json.RawMessage `json:"result"`
			} `json:"steps"`
		}
		if err := json.Unmarshal(gunzip(t, path), &study); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, st := range study.Steps {
			if len(st.Result) == 0 || string(st.Result) == "null" {
				continue
			}
			docs[study.Study+"-"+st.ID] = readDoc(t, path+" step "+st.ID, st.Result)
		}
	}
	own, _ := filepath.Glob("testdata/recorded/*.json.gz")
	for _, path := range own {
		docs[strings.TrimSuffix(filepath.Base(path), ".json.gz")] = readDoc(t, path, gunzip(t, path))
	}
	if len(studies) == 0 || len(own) == 0 {
		t.Fatalf("no recorded documents (%d studies, %d of report's own)", len(studies), len(own))
	}
	return docs
}

func gunzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(zr); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b.Bytes()
}

func readDoc(t *testing.T, name string, data []byte) *result.Document {
	t.Helper()
	doc, err := result.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc
}

// TestGoldenRecorded renders each recorded document as the terminal text,
// Markdown and HTML (without ECharts' own script) and compares each with
// testdata/rendered/; go test -update rewrites them. A change to a family's
// tables shows here on real runs of every family command.
func TestGoldenRecorded(t *testing.T) {
	t.Parallel()
	docs := recordedDocs(t)
	noOrphans(t, docs)
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srcs := []Source{{Name: name + ".json", Doc: doc}}
			var text, md, page bytes.Buffer
			if err := Text(&text, doc); err != nil {
				t.Fatal(err)
			}
			if err := Markdown(&md, srcs); err != nil {
				t.Fatal(err)
			}
			if err := renderHTML(&page, srcs, "/* echarts */"); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("rendered", name+".txt"), text.Bytes())
			golden(t, filepath.Join("rendered", name+".md"), md.Bytes())
			golden(t, filepath.Join("rendered", name+".html"), page.Bytes())
		})
	}
}

// noOrphans fails for a file in testdata/rendered/ that no recorded
// document renders any more (a step renamed or dropped from a study leaves
// its old golden behind, pinning nothing).
func noOrphans(t *testing.T, docs map[string]*result.Document) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "rendered", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		if _, ok := docs[name]; !ok {
			t.Errorf("%s: no recorded document renders it any more: remove it", f)
		}
	}
}
