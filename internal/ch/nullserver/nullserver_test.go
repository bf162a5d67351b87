package nullserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// TestStart: a stand-in starts holding dbmeter's insert table, writes its
// certificate where asked, and a certificate without TLS or an address it
// cannot listen on is the user's mistake, named by field.
func TestStart(t *testing.T) {
	t.Parallel()
	cert := filepath.Join(t.TempDir(), "ca.pem")
	tests := []struct {
		name    string
		o       Options
		wantErr string // "" for a stand-in that starts
	}{
		{"plain", Options{Listen: "127.0.0.1:0"}, ""},
		{"tls with its certificate", Options{Listen: "127.0.0.1:0", TLS: true, CertOut: cert}, ""},
		{"a certificate without tls", Options{Listen: "127.0.0.1:0", CertOut: cert}, "{CertOut} needs {TLS}"},
		{"an address it cannot listen on", Options{Listen: "256.0.0.1:1"}, "{Listen} 256.0.0.1:1: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, err := Start(tt.o)
			if tt.wantErr != "" {
				if err == nil || !usage.Is(err) || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("Start(%+v) = %v; want a usage error %q", tt.o, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			if n, err := srv.Rows(insert.DefaultDatabase, "event"); err != nil || n != 0 {
				t.Errorf("the insert table: %d rows, %v; want it made, empty", n, err)
			}
			if tt.o.CertOut != "" {
				if b, err := os.ReadFile(tt.o.CertOut); err != nil || !strings.Contains(string(b), "BEGIN CERTIFICATE") {
					t.Errorf("certificate file: %v; want the PEM written", err)
				}
			}
		})
	}
}
