package clients

import (
	"testing"

	"github.com/dbmeter/dbmeter/internal/load"
)

// TestHTTPErrorKinds: what a refused HTTP query counts as. A server that
// drops a query while it shuts down answers 500 with no body: that is the
// server failing, never "other".
func TestHTTPErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
	}{
		{500, "Code: 62, e.displayText() = DB::Exception: Syntax error", load.KindServer},
		{500, "", load.KindServer},
		{404, "Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist", load.KindServer},
		{503, "", load.KindConnection},
		{502, "<html>bad gateway</html>", load.KindConnection},
		{504, "", load.KindConnection},
		{401, "", load.KindOther},
		{404, "There is no handle /nope", load.KindOther},
	} {
		err := httpError(tc.status, []byte(tc.body))
		if got := load.Classify(err); got != tc.want {
			t.Errorf("HTTP %d %q: kind %q, want %q (%v)", tc.status, tc.body, got, tc.want, err)
		}
	}
}
