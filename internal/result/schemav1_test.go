package result

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
	"testing"
)

// v1Document is a null run's document as dbmeter wrote it before settings
// were keyed by declared names (a copy of report's recorded
// null-closed.json.gz, which may be recorded again): frozen, as the
// documents users keep are.
const v1Document = "testdata/v1-null-closed.json.gz"

// TestReadV1 reads a document recorded before settings were keyed by
// declared names (dbmeter/v1, flag spellings) and finds each setting under
// its declared name, with its value and its role: a v1 document reads as
// a v2 one.
func TestReadV1(t *testing.T) {
	f, err := os.Open(v1Document)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"schema": "dbmeter/v1"`)) || !bytes.Contains(raw, []byte(`"max-in-flight"`)) {
		t.Fatalf("%s is not a v1 document keyed by flag spellings", v1Document)
	}
	doc, err := Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Schema != Schema {
		t.Errorf("schema %q after reading, want %q", doc.Schema, Schema)
	}
	r := &doc.Runs[0]
	for _, tt := range []struct {
		name, value string
		role        Role
	}{
		{"max_in_flight", "1000", Defines},
		{"stall_every", "0s", Defines},
		{"step_duration", "10s", Extent},
		{"find_max_rate", "false", Defines},
		{"duration", "1s", Extent},
		{"no_disk_probe", "false", Observes},
		{"hdr_log", "", Observes},
	} {
		if v, ok := doc.Setting(r, tt.name); !ok || v != tt.value {
			t.Errorf("setting %s = %q, %v; want %q", tt.name, v, ok, tt.value)
		}
		if got := doc.Role(tt.name); got != tt.role {
			t.Errorf("role of %s = %s, want %s", tt.name, got, tt.role)
		}
	}
	for _, m := range []map[string]string{r.Params, doc.Observed} {
		for k := range m {
			if strings.Contains(k, "-") {
				t.Errorf("key %q kept its v1 spelling", k)
			}
		}
	}
	for k := range doc.Settings {
		if strings.Contains(k, "-") {
			t.Errorf("declaration %q kept its v1 spelling", k)
		}
	}
}

// TestReadV1Legacy: a v1 document older than declarations has its
// observations among its params under flag spellings; they read under the
// declared names and by the legacy roles, which name them that way too.
func TestReadV1Legacy(t *testing.T) {
	in := `{"schema":"dbmeter/v1","runs":[{"params":{"hdr-log":"a.hlog","key-size":"16","workers":"2"}}],
"capacity":[{"params":{"key-size":"16"}}]}`
	doc, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	r := &doc.Runs[0]
	if got := doc.Defining(r); len(got) != 2 || got[SettingKeySize] != "16" || got[SettingWorkers] != "2" {
		t.Errorf("defining params %v, want key_size and workers (hdr_log observes)", got)
	}
	if doc.Capacity[0].Params[SettingKeySize] != "16" {
		t.Errorf("capacity params %v, want key_size", doc.Capacity[0].Params)
	}
	if _, err := Read(strings.NewReader(`{"schema":"dbmeter/v0"}`)); err == nil || !strings.Contains(err.Error(), `"dbmeter/v0"`) {
		t.Errorf("schema v0 read with error %v, want one naming it", err)
	}
}

// TestLabel: a setting a flag sets is headed by the flag's spelling, one
// a family names itself or an engine's knob by its name.
func TestLabel(t *testing.T) {
	for name, want := range map[string]string{
		SettingKeySize: "key-size", "pool_max_idle": "pool-max-idle", SettingPreloadedKeys: "preloaded_keys",
		"pebble.cache_size": "pebble.cache_size", SettingWorkers: "workers", "not_declared": "not_declared",
	} {
		if got := Label(name); got != want {
			t.Errorf("Label(%q) = %q, want %q", name, got, want)
		}
	}
}

// Declared names are v2 names: none is spelled with a "-", so a v1 key
// renamed by SettingName is the declared name itself, and a label
// (Label) turns back into the v1 key only the names a flag sets.
func TestDeclaredNamesHaveNoDash(t *testing.T) {
	for _, f := range Families() {
		for _, n := range f.Settings {
			if SettingName(n) != n {
				t.Errorf("%s declares setting %q: declared names use _, not -", f.Family, n)
			}
		}
	}
	for name := range legacySettings() {
		if SettingName(name) != name {
			t.Errorf("legacySettings declares %q under its v1 spelling: Declared is asked by the v2 name", name)
		}
	}
}
