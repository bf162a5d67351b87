package registry_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/dbmeter/dbmeter/internal/registry"
)

// colours is a registry as a family writes one: one line per entry, one
// of them known but not built in.
func colours() registry.Registry[int] {
	return registry.New("colour", []registry.Entry[int]{
		{Name: "red", Modules: []string{"example.com/b", "example.com/a"}, Value: 1},
		{Name: "green", Modules: []string{"example.com/a"}, Value: 2},
		{Name: "blue", Value: 3},
		{Name: "ultraviolet", Modules: []string{"example.com/uv"}, Missing: "not built in (build with -tags uv)", Value: 4},
	})
}

func TestLookup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		want        int
		wantErr     string // "" for a usable entry
		wantUnknown bool   // the error matches ErrUnknown
	}{
		{name: "green", want: 2},
		{name: "blue", want: 3},
		{name: "gren", wantErr: `unknown colour "gren" (did you mean "green"?); known: red, green, blue`, wantUnknown: true},
		{name: "purple", wantErr: `unknown colour "purple"; known: red, green, blue`, wantUnknown: true}, // too far for a guess
		{name: "ultraviolet", wantErr: "colour ultraviolet is not built in (build with -tags uv)"},
	}
	for _, tt := range tests {
		got, err := colours().Lookup(tt.name)
		if tt.wantErr == "" {
			if err != nil || got != tt.want {
				t.Errorf("Lookup(%q) = %d, %v; want %d", tt.name, got, err, tt.want)
			}
			continue
		}
		if err == nil || err.Error() != tt.wantErr {
			t.Errorf("Lookup(%q) error = %v, want %q", tt.name, err, tt.wantErr)
		}
		if errors.Is(err, registry.ErrUnknown) != tt.wantUnknown {
			t.Errorf("Lookup(%q): errors.Is(err, ErrUnknown) = %v, want %v", tt.name, !tt.wantUnknown, tt.wantUnknown)
		}
	}
}

// Names and Modules cover what this build can use, Known and Entries
// everything registered.
func TestListings(t *testing.T) {
	t.Parallel()
	r := colours()
	if got, want := r.Names(), []string{"red", "green", "blue"}; !slices.Equal(got, want) {
		t.Errorf("Names() = %q, want %q (registration order, without the entry not built in)", got, want)
	}
	if got, want := r.Modules(), []string{"example.com/a", "example.com/b"}; !slices.Equal(got, want) {
		t.Errorf("Modules() = %q, want %q (sorted, once each, without the entry not built in)", got, want)
	}
	if !r.Known("ultraviolet") || r.Known("purple") {
		t.Errorf("Known(ultraviolet), Known(purple) = %v, %v; want true, false", r.Known("ultraviolet"), r.Known("purple"))
	}
	if n := len(r.Entries()); n != 4 {
		t.Errorf("Entries() has %d entries, want all 4", n)
	}
	r.Entries()[0].Modules[0] = "changed"
	if r.Modules()[1] != "example.com/b" {
		t.Error("changing what Entries returned changed the registry")
	}
}

func TestNewRefusesARepeatedName(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("New accepted the name red twice")
		}
	}()
	registry.New("colour", []registry.Entry[int]{{Name: "red"}, {Name: "red"}})
}
