package sink

import (
	"io"
	"os"
	"slices"
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

// TestCheckpointErrorIsSaid: a --json file that cannot be written (here a
// device that is always full) is said once on stderr, not dropped, and the
// runs stay in the document for the final write.
func TestCheckpointErrorIsSaid(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	var stderr strings.Builder
	s, err := Open(IO{Stdout: io.Discard, Stderr: &stderr}, "null", Options{JSON: "/dev/full", Quiet: true, NoDiskProbe: true}, "")
	if err != nil {
		t.Fatal(err)
	}
	// Not Abort or Finish: Abort removes the output path.
	defer func() {
		for _, o := range s.files {
			o.f.Close()
		}
	}()
	s.Add(result.Run{Target: "t", Workload: "a", Params: map[string]string{}})
	s.Add(result.Run{Target: "t", Workload: "b", Params: map[string]string{}})
	if got := strings.Count(stderr.String(), "cannot checkpoint {JSON} /dev/full"); got != 1 || len(s.Doc().Runs) != 2 {
		t.Errorf("stderr %q (%d mentions), %d runs kept; want one line and both runs", stderr.String(), got, len(s.Doc().Runs))
	}
}

// TestEnvNamesExternalClients: the document's environment names each
// external client's stack once, however many runs drove it, in the order
// first met; Go clients' runs add nothing.
func TestEnvNamesExternalClients(t *testing.T) {
	php := &result.ExternalClient{Command: "php w.php", Language: "php", Runtime: "8.2.29", Library: "SeasClick 0.1.0"}
	py := &result.ExternalClient{Command: "python3 w.py", Language: "python", Runtime: "3.11.2", Library: "clickhouse-driver 0.2.5"}
	phpEnv := result.ExternalEnv{Language: "php", Runtime: "8.2.29", Library: "SeasClick 0.1.0"}
	pyEnv := result.ExternalEnv{Language: "python", Runtime: "3.11.2", Library: "clickhouse-driver 0.2.5"}
	for _, tc := range []struct {
		name string
		runs []*result.ExternalClient
		want []result.ExternalEnv
	}{
		{"go clients only", []*result.ExternalClient{nil, nil}, nil},
		{"one client, repeated", []*result.ExternalClient{php, nil, php}, []result.ExternalEnv{phpEnv}},
		{"two clients", []*result.ExternalClient{py, php, py}, []result.ExternalEnv{pyEnv, phpEnv}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(IO{Stdout: io.Discard, Stderr: io.Discard}, "ch", Options{Quiet: true, NoDiskProbe: true}, "")
			if err != nil {
				t.Fatal(err)
			}
			defer s.Abort()
			for _, x := range tc.runs {
				s.Add(result.Run{Target: "t", Workload: "w", Params: map[string]string{}, External: x})
			}
			if got := s.Doc().Env.ExternalClients; !slices.Equal(got, tc.want) {
				t.Errorf("env.external_clients = %+v, want %+v", got, tc.want)
			}
		})
	}
}
