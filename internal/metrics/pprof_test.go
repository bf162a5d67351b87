package metrics

import (
	"bytes"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

func TestServePprofRefusesBadAddresses(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		addr, want string
	}{
		{"6060", `{PprofAddr} "6060": want HOST:PORT such as 127.0.0.1:6060`},
		{"localhost", `{PprofAddr} "localhost": want HOST:PORT`},
		{busy.Addr().String(), "{PprofAddr}: listen tcp " + busy.Addr().String()},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		stop, err := ServePprof(tt.addr, &stderr)
		if err == nil {
			stop()
			t.Errorf("ServePprof(%q) served; want an error containing %q", tt.addr, tt.want)
			continue
		}
		if !usage.Is(err) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ServePprof(%q) = %v (usage %v); want a usage error containing %q", tt.addr, err, usage.Is(err), tt.want)
		}
		if stderr.Len() > 0 {
			t.Errorf("ServePprof(%q) said %q before failing", tt.addr, stderr.String())
		}
	}
}

func TestServePprofEmptyServesNothing(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	stop, err := ServePprof("", &stderr)
	if err != nil || stderr.Len() > 0 {
		t.Fatalf("ServePprof(\"\") = %v, said %q; want nothing", err, stderr.String())
	}
	stop()
}

// TestServePprof binds ":0" to loopback, as the metrics endpoint does, and
// serves the index until stopped.
func TestServePprof(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	stop, err := ServePprof(":0", &stderr)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^dbmeter: pprof at (http://127\.0\.0\.1:\d+/debug/pprof/)\n$`).FindStringSubmatch(stderr.String())
	if m == nil {
		stop()
		t.Fatalf("stderr %q: want one line with a loopback URL and no warning", stderr.String())
	}
	resp, err := http.Get(m[1])
	if err != nil {
		stop()
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %s", m[1], resp.Status)
	}
	stop()
	if _, err := http.Get(m[1]); err == nil {
		t.Errorf("GET %s after stop succeeded", m[1])
	}
}
