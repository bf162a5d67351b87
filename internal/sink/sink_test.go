package sink

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dbmeter/dbmeter/internal/result"
)

// TestAddMasksThenShortens: a run's error messages and warnings lose the
// DSN's secret values before a long message is cut, so a secret that
// straddles the cut leaves no prefix behind, and the cut keeps the text
// valid UTF-8.
func TestAddMasksThenShortens(t *testing.T) {
	const secret = "hunter2hunter2"
	s, err := Open(IO{Stdout: io.Discard, Stderr: io.Discard}, "null", Options{Quiet: true, NoDiskProbe: true}, "", secret)
	if err != nil {
		t.Fatal(err)
	}
	straddling := strings.Repeat("é", 140) + " auth failed for " + secret + strings.Repeat(" more", 50) // the secret spans bytes 297–310
	odd := "a" + strings.Repeat("é", 200)                                                               // byte 300 is inside an é
	s.Add(result.Run{
		Target: "t", Workload: "w", Params: map[string]string{},
		ErrorSamples: map[string]string{"server": straddling, "other": odd},
		Warnings:     []string{"server said " + secret},
	})
	r := s.Doc().Runs[0]
	for kind, got := range r.ErrorSamples {
		if strings.Contains(got, "hunter") || !utf8.ValidString(got) || len(got) > maxSample+len("…") || !strings.HasSuffix(got, "…") {
			t.Errorf("%s sample %q: want it masked, then cut at %d bytes on a character boundary", kind, got, maxSample)
		}
	}
	if strings.Contains(r.Warnings[0], secret) {
		t.Errorf("warning %q shows the secret", r.Warnings[0])
	}
}
