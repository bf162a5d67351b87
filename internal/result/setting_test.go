package result

import (
	"maps"
	"testing"
)

// A document that declares its settings is read by its declarations; one
// written before declarations existed (every flag among the params) by the
// roles of that time; a setting declared nowhere defines its run.
func TestDefining(t *testing.T) {
	t.Parallel()
	run := Run{Params: map[string]string{"workers": "4", "duration": "1s", "hdr_log": "r.hlog", "engines": "[a,b]", "preloaded_keys": "10"}}
	declared := &Document{Settings: map[string]Setting{
		"workers": {Role: Defines, Kind: "int"}, "duration": {Role: Extent, Kind: "duration"},
		"engines": {Role: Selects, Kind: "list"}, "hdr_log": {Role: Defines, Kind: "string"},
	}}
	tests := []struct {
		name       string
		doc        *Document
		defining   []string
		unobserved []string
	}{
		{"old document", &Document{}, []string{"workers", "preloaded_keys"}, []string{"workers", "duration", "engines", "preloaded_keys"}},
		{"declared document", declared, []string{"workers", "hdr_log", "preloaded_keys"}, []string{"workers", "duration", "engines", "hdr_log", "preloaded_keys"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, c := range []struct {
				what string
				got  map[string]string
				want []string
			}{{"Defining", tt.doc.Defining(&run), tt.defining}, {"Unobserved", tt.doc.Unobserved(&run), tt.unobserved}} {
				want := map[string]string{}
				for _, k := range c.want {
					want[k] = run.Params[k]
				}
				if !maps.Equal(c.got, want) {
					t.Errorf("%s(%v) = %v, want %v", c.what, run.Params, c.got, want)
				}
			}
		})
	}
}

// The progress interval is read from the params of an old document and
// from the observations of a new one.
func TestProgressInterval(t *testing.T) {
	t.Parallel()
	old := Run{Params: map[string]string{"progress": "250ms"}}
	tests := []struct {
		name string
		doc  *Document
		run  Run
		want string
	}{
		{"old document", &Document{}, old, "250ms"},
		{"new document", &Document{Observed: map[string]string{"progress": "2s"}}, Run{Params: map[string]string{}}, "2s"},
		{"none asked", &Document{Observed: map[string]string{"progress": "0s"}}, Run{}, "0s"},
	}
	for _, tt := range tests {
		got, _ := tt.doc.ProgressInterval(&tt.run)
		if got.String() != tt.want {
			t.Errorf("%s: ProgressInterval = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// The typed accessors read what the run recorded, and an absent or
// malformed setting as absent, never as a measured zero.
func TestTypedSettings(t *testing.T) {
	t.Parallel()
	r := Run{Params: map[string]string{"duration": "1.5s", "count": "0", "warmup": "200ms", "fsync": "true", "batch": "x", "rows": "5"}}
	if w := r.Window(); w.Duration.String() != "1.5s" || w.Count != 0 || w.Warmup.String() != "200ms" {
		t.Errorf("Window() = %+v, want 1.5s, 0 ops, 200ms warm-up", w)
	}
	tests := []struct {
		name   string
		intOK  bool
		boolOn bool
		durOK  bool
	}{
		{"rows", true, false, false},
		{"fsync", false, true, false},
		{"batch", false, false, false},
		{"absent", false, false, false},
		{"warmup", false, false, true},
	}
	for _, tt := range tests {
		_, intOK := r.IntSetting(tt.name)
		_, durOK := r.DurationSetting(tt.name)
		if intOK != tt.intOK || r.BoolSetting(tt.name) != tt.boolOn || durOK != tt.durOK {
			t.Errorf("%s=%q: int %v, bool %v, duration %v; want %v, %v, %v", tt.name, r.Params[tt.name], intOK, r.BoolSetting(tt.name), durOK, tt.intOK, tt.boolOn, tt.durOK)
		}
	}
}
