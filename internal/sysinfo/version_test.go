package sysinfo_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/sysinfo"
)

func TestWriteBuild(t *testing.T) {
	t.Parallel()
	const rev = "c94b0a389c918cb5c7042edc17c3325e52f321c4"
	for _, c := range []struct {
		tool result.Tool
		want string
	}{
		{result.Tool{Version: "c94b0a389c91", Revision: rev, RevisionTime: "2026-11-23T12:00:00Z", Go: "go1.26.8", Tags: []string{"rocksdb"}},
			"dbmeter c94b0a389c91 (go1.26.8 *, tags rocksdb)\n  commit " + rev + " 2026-11-23T12:00:00Z, clean checkout\n"},
		{result.Tool{Version: "c94b0a389c91-dirty", Revision: rev, RevisionTime: "2026-11-23T12:00:00Z", Modified: true, Go: "go1.26.8", Tags: []string{}},
			"dbmeter c94b0a389c91-dirty (go1.26.8 *, no build tags)\n  commit " + rev + " 2026-11-23T12:00:00Z, with uncommitted changes\n"},
		{result.Tool{Version: "devel", Go: "go1.26.8", Tags: []string{}},
			"dbmeter devel (go1.26.8 *, no build tags)\n  no VCS stamp"},
		{result.Tool{Version: "v1.2.0", Go: "go1.26.8", Tags: []string{}},
			"dbmeter v1.2.0 (go1.26.8 *, no build tags)\n"},
	} {
		var buf bytes.Buffer
		sysinfo.WriteBuild(&buf, c.tool)
		got := buf.String()
		// The platform sits where the * is.
		pre, post, _ := strings.Cut(c.want, "*")
		i := strings.Index(got, ", ")
		if !strings.HasPrefix(got, pre) || i < 0 || !strings.HasPrefix(got[i:], post) {
			t.Errorf("tool %+v: got %q, want %q", c.tool, got, c.want)
		}
	}
}
