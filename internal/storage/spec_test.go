package storage

import (
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// ParseSpec reads no spec as no profile, gives a profile a study's probe
// share, and refuses a spec it cannot read as the user's mistake, naming
// the setting as {StorageProfile}.
func TestParseSpec(t *testing.T) {
	t.Parallel()
	tests := []struct {
		spec, share string
		wantName    string // "" is no profile
		wantErr     string
	}{
		{"", "/tmp/share", "", ""},
		{"hdd", "", "hdd", ""},
		{"hdd", "/tmp/share", "hdd", ""},
		{"riops=200,mem=1G", "", "custom", ""},
		{"floppy", "", "", "{StorageProfile}"},
	}
	for _, tt := range tests {
		p, err := ParseSpec(tt.spec, tt.share)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !usage.Is(err) {
				t.Errorf("ParseSpec(%q) = %v; want a usage error with %q", tt.spec, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("ParseSpec(%q): %v", tt.spec, err)
		}
		if (p == nil) != (tt.wantName == "") || (p != nil && (p.Name != tt.wantName || p.ProbeShare != tt.share)) {
			t.Errorf("ParseSpec(%q, %q) = %+v, want name %q and the share", tt.spec, tt.share, p, tt.wantName)
		}
	}
}
