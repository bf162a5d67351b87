package report

import (
	"bytes"
	"strings"
	"testing"
)

// Documents written before settings were declared (dbmeter 52d3a57, every
// flag among the runs' params) still compare: runs that differ only in how
// they were observed match, by the roles of that time.
func TestCompareOldDocuments(t *testing.T) {
	t.Parallel()
	tests := []struct{ base, new string }{
		{"old-null.json", "old-null-hdrlog.json"},
		{"old-null.json", "old-null-nodiskprobe.json"},
	}
	for _, tt := range tests {
		t.Run(tt.new, func(t *testing.T) {
			t.Parallel()
			srcs, err := ReadSources("testdata/"+tt.base, "testdata/"+tt.new)
			if err != nil {
				t.Fatal(err)
			}
			if srcs[0].Doc.Settings != nil {
				t.Fatalf("%s declares its settings: not a document of the old format", tt.base)
			}
			var out bytes.Buffer
			if err := Compare(&out, srcs[0], srcs[1]); err != nil || !strings.Contains(out.String(), "null null noop") || strings.Contains(out.String(), "only in") {
				t.Errorf("compare %s %s: error %v, output:\n%s", tt.base, tt.new, err, out.String())
			}
		})
	}
}
