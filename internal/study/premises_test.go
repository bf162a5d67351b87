package study

import (
	"strings"
	"testing"
)

// A claim's further premises are checked as its premise is: a mistake in
// one is named by its line and its place in the list.
func TestPremisesValidated(t *testing.T) {
	good := goodStudy + "    premises:\n      - {what: two hosts, evidence: different_storage}\n"
	if _, err := Parse("t.yaml", []byte(good)); err != nil {
		t.Fatalf("a claim with a further premise: %v", err)
	}
	for _, tt := range []struct{ premise, want string }{
		{"{what: two hosts, evidence: different_disks}", `t.yaml:25: claims[0].premises[0].evidence: "different_disks": use cache_misses or`},
		{"{evidence: different_storage}", "t.yaml:25: claims[0].premises[0].what: missing"},
		{"{what: IO-bound, evidence: device_reads}", "t.yaml:25: claims[0].premises[0].above: device_reads needs above"},
	} {
		_, err := Parse("t.yaml", []byte(goodStudy+"    premises:\n      - "+tt.premise+"\n"))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("premises: [%s]: %v, want %q", tt.premise, err, tt.want)
		}
	}
}
