package cli

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/servertest"

	"github.com/dbmeter/dbmeter/internal/result"
)

var metricsURL = regexp.MustCompile(`Prometheus metrics at (http://\S+)`)

// TestMetricsEndpointDuringRun scrapes --metrics-addr while a run goes: the
// endpoint is announced, the operation counter moves under the family the
// command names (whatever flags come before it), and it never passes the
// operations the result reports.
func TestMetricsEndpointDuringRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		ops  *regexp.Regexp
	}{
		{"null", []string{"null", "--duration", "1500ms", "--warmup", "0"},
			regexp.MustCompile(`(?m)^dbmeter_operations_total\{family="null",operation="noop",target="null",workload="noop"\} (\S+)$`)},
		{"kv after a global flag", []string{"--cpuprofile", filepath.Join(t.TempDir(), "p.out"), "kv", "--engines", "map:memory", "--ops", "get", "--duration", "1500ms", "--warmup", "0"},
			regexp.MustCompile(`(?m)^dbmeter_operations_total\{family="kv",operation="get",target="map:memory",workload="get"\} (\S+)$`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			scrapeDuringRun(t, tt.args, tt.ops)
		})
	}
}

func scrapeDuringRun(t *testing.T, args []string, ops *regexp.Regexp) {
	dir := t.TempDir()
	var stderr servertest.LockedBuffer
	done := make(chan int)
	go func() {
		done <- Main(context.Background(), Env{
			Args: append(args, "--progress", "100ms", "--quiet",
				"--metrics-addr", "127.0.0.1:0", "--json", filepath.Join(dir, "r.json")),
			Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr, Getenv: func(string) string { return "" },
		})
	}()
	var url string
	for i := 0; i < 200 && url == ""; i++ {
		if m := metricsURL.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		}
		time.Sleep(10 * time.Millisecond)
	}
	if url == "" {
		t.Fatalf("dbmeter did not announce the metrics endpoint: %q", stderr.String())
	}
	var seen []float64
	for i := 0; i < 12 && len(seen) < 3; i++ {
		time.Sleep(150 * time.Millisecond)
		resp, err := http.Get(url)
		if err != nil {
			break // the run ended and took the endpoint with it
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if m := ops.FindSubmatch(body); m != nil {
			v, _ := strconv.ParseFloat(string(m[1]), 64)
			if len(seen) == 0 || v > seen[len(seen)-1] {
				seen = append(seen, v)
			}
		}
	}
	if code := <-done; code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
	}
	if len(seen) < 2 {
		t.Errorf("the operation counter did not move during the run: %v", seen)
	}
	doc, err := result.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) > 0 && seen[len(seen)-1] > float64(doc.Runs[0].Ops) {
		t.Errorf("counter %g passed the result's ops %d", seen[len(seen)-1], doc.Runs[0].Ops)
	}
}
