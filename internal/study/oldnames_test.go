package study

import (
	"bytes"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// A study file written before settings were keyed by declared names (as
// an older study document holds it) spells them as flags,
// params.pool-max-idle: it still validates, and selects the same setting
// as params.pool_max_idle.
func TestOldSettingSpellings(t *testing.T) {
	files := studyFiles(t)
	var data []byte
	for name, d := range files {
		if bytes.Contains(d, []byte("params.pool_max_idle")) {
			data = bytes.ReplaceAll(d, []byte("params.pool_max_idle"), []byte("params.pool-max-idle"))
			if _, err := parse(name, data, result.Families()); err != nil {
				t.Errorf("%s with params.pool-max-idle: %v", name, err)
			}
		}
	}
	if data == nil {
		t.Fatal("no built-in study selects by params.pool_max_idle")
	}
	r := &result.Run{Params: map[string]string{"pool_max_idle": "50"}}
	if got := field(r, "params.pool-max-idle"); got != "50" {
		t.Errorf("params.pool-max-idle reads %q of a run with pool_max_idle 50", got)
	}
}
