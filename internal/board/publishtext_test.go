package board

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/study"
)

// TestPublishStudyText: a study file that names a path or a host cannot be
// scrubbed without changing its SHA-256, so publish refuses it; a built-in
// study's file as dbmeter ships it is public (s5 quotes a /sys path from
// its article) and is published as it is, but not once edited.
func TestPublishStudyText(t *testing.T) {
	s5, err := study.Load("s5")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s5.Text, "/sys/block/") {
		t.Fatal("s5 no longer quotes a /sys path: this test needs a built-in study whose text the scrubber would change")
	}
	tiny, tinySum := tinyStudy(t, func(s string) string { return s + "\n# made on /home/alice/bench at db1.corp.example\n" })
	edited := s5.Text + "\n# edited\n"
	for _, tc := range []struct {
		name, id, file, text, sum string
		published                 bool
	}{
		{"a user's file naming a path", "tiny", "testdata/tiny.yaml", tiny, tinySum, false},
		{"built-in s5 as shipped", "s5", "builtin/s5.yaml", s5.Text, s5.Hash, true},
		{"built-in s5 edited", "s5", "builtin/s5.yaml", edited, hashOf(edited), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := studyDoc(t, machine{name: "x", cpuNs: 5e6, map_: reps(1000, 10), btr: reps(900, 10)}, tc.text, tc.sum)
			doc.Study, doc.File = tc.id, tc.file
			data, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			out, _, problems, err := Publish(data, Identity{}, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := out != nil; got != tc.published {
				t.Fatalf("published %v, want %v (problems %v)", got, tc.published, problems)
			}
			if !tc.published && (len(problems) != 1 || !strings.Contains(problems[0].String(), "names a host, user, path")) {
				t.Errorf("problems %v, want the one line about the study file's text", problems)
			}
		})
	}
}

func hashOf(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}
