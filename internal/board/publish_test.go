package board

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Publish replaces every kind of identifying value planted in a
// document, and none of them reaches the published copy or the board
// made from it.
func TestPublishRemovesEveryIdentifier(t *testing.T) {
	text, sum := tinyStudy(t, nil)
	doc := studyDoc(t, machine{name: "x", cpuNs: 5e6, map_: reps(1000, 20), btr: reps(500, 10)}, text, sum)
	r := doc.Steps[0].Result
	planted := map[string]string{
		"host name in a DSN":     "db7.corp.example",
		"DSN user":               "alice",
		"DSN password":           "s3cretpw",
		"this machine's name":    "buildhost-42",
		"this machine's user":    "carol",
		"conninfo host":          "db8.internal",
		"conninfo user":          "bob",
		"conninfo password":      "hunter22",
		"flag host":              "pg9.lan",
		"home directory path":    "/home/alice/studies/x.yaml",
		"data path":              "/srv/data/kv-1",
		"IPv4 address":           "10.20.30.40",
		"IPv6 address":           "fe80::1ff:fe23:4567:890a",
		"IPv6 address in a DSN":  "2001:db8::17",
		"user in an error":       "dave",
		"host in a later string": "db7",
	}
	r.Command = "dbmeter pg --dsn postgres://alice:s3cretpw@db7.corp.example:5432/bench -h pg9.lan -U dave -c 8"
	doc.Steps[0].Command = "dbmeter kv --engines map,btree --ops set --fsync false"
	r.Env.Disk.Path = "/srv/data/kv-1"
	r.Runs[0].Target = "10.20.30.40:5432/pgx"
	r.Runs[0].Warnings = []string{"connection to db7.corp.example refused as user alice", "host=db8.internal user=bob password=hunter22 failed", "buildhost-42: carol ran it"}
	r.Runs[0].ErrorSamples = map[string]string{"connection": "dial tcp [fe80::1ff:fe23:4567:890a]:5432: no route; then clickhouse://[2001:db8::17]:9000/default", "other": "permission denied for user dave in /home/alice/studies/x.yaml"}
	r.Observed = map[string]string{"json": "/home/alice/out/r.json"}
	r.Machine.TopOthers = []result.ProcessCPU{{Name: "db7", Processes: 1, Cores: 0.5}}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	out, p, problems, err := Publish(data, Identity{Hostname: "buildhost-42", User: "carol"}, "x")
	if err != nil || len(problems) > 0 {
		t.Fatalf("publish: %v %v", err, problems)
	}
	dir := t.TempDir()
	if os.Getenv("BOARD_DEBUG") != "" {
		dir = os.Getenv("BOARD_DEBUG")
	}
	path := filepath.Join(dir, "x.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Build([]string{path}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var page, md bytes.Buffer
	if err := WriteHTML(&page, b); err != nil {
		t.Fatal(err)
	}
	WriteMarkdown(&md, b)
	for what, v := range planted {
		for name, text := range map[string]string{"published copy": string(out), "board page": page.String(), "board markdown": md.String()} {
			if strings.Contains(text, v) {
				i := strings.Index(text, v)
				t.Errorf("%s %q is in the %s: …%s…", what, v, name, text[max(0, i-80):min(len(text), i+80)])
			}
		}
	}
	kinds := map[string]bool{}
	for _, r := range p.Removed {
		kinds[r.Kind] = true
	}
	for _, k := range []string{KindDSN, KindPassword, KindHost, KindIP, KindUser, KindPath} {
		if !kinds[k] {
			t.Errorf("published.removed does not list %s: %+v", k, p.Removed)
		}
	}
	if !strings.Contains(page.String(), "× host name (host-1") {
		t.Error("the board page does not say what publish removed")
	}
	// The rest of the document is kept: the study file (its hash is what
	// the board groups by) and loopback.
	if !strings.Contains(string(out), sum) || !strings.Contains(string(out), "tiny.yaml") {
		t.Error("publish changed the study file's hash or name")
	}
}

// Publish refuses a document that breaks the result schema, one line
// per problem, and writes nothing.
func TestPublishRefusesInvalid(t *testing.T) {
	text, sum := tinyStudy(t, nil)
	for _, tc := range []struct {
		name   string
		break_ func(m map[string]any)
		want   string
	}{
		{"wrong shape", func(m map[string]any) { m["steps"] = "none" }, "wrong shape: steps is a JSON string"},
		{"negative ops", func(m map[string]any) { run0(m)["ops"] = -5 }, "runs[0] (map/set): ops -5 is negative"},
		{"percentiles out of order", func(m map[string]any) { run0(m)["latency_ns"].(map[string]any)["p99"] = 1 }, "latency_ns out of order"},
		{"no CPU", func(m map[string]any) { step0(m)["result"].(map[string]any)["env"].(map[string]any)["cpus"] = 0 }, "env.cpus: 0: a machine has at least one CPU"},
		{"another schema", func(m map[string]any) { m["schema"] = "dbmeter/v1" }, `schema: "dbmeter/v1", want "dbmeter-study/v1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := studyDoc(t, machine{name: "x", cpuNs: 5e6, map_: []float64{1000}, btr: nil}, text, sum)
			data, _ := json.Marshal(doc)
			var m map[string]any
			_ = json.Unmarshal(data, &m)
			tc.break_(m)
			data, _ = json.Marshal(m)
			out, _, problems, err := Publish(data, Identity{}, "")
			if err != nil || out != nil || len(problems) != 1 || !strings.Contains(problems[0].String(), tc.want) {
				t.Errorf("publish: out %d bytes, err %v, problems %v; want one, %q", len(out), err, problems, tc.want)
			}
			for _, p := range problems {
				if strings.Contains(p.String(), "\n") {
					t.Errorf("a problem of more than one line: %q", p)
				}
			}
		})
	}
}

func step0(m map[string]any) map[string]any { return m["steps"].([]any)[0].(map[string]any) }

func run0(m map[string]any) map[string]any {
	return step0(m)["result"].(map[string]any)["runs"].([]any)[0].(map[string]any)
}
