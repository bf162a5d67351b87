package study

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// stepDoc is a Runner whose every step returns doc and err.
type stepDoc struct {
	doc *result.Document
	err error
}

func (f stepDoc) Step(context.Context, []string, bool) (*result.Document, error) { return f.doc, f.err }

// A step whose only failure is a variant that completed nothing (its
// document says so: Document.Empty; cznic/kv's set in the quick fsync
// step, whose group commit outlasts a 50 ms cell) goes on with that cell
// shown as empty; a document with failed operations, or a failure with no
// empty variant, is a failed step; an interrupted one is recorded so.
func TestStepOnlyEmpty(t *testing.T) {
	s, err := Parse("c.yaml", []byte(claimStudy))
	if err != nil {
		t.Fatal(err)
	}
	full := result.Run{Family: "kv", Target: "map", Workload: "set", Stats: result.Stats{Ops: 100, DurationS: 0.05}}
	none := result.Run{Family: "kv", Target: "cznic/kv", Workload: "set", Stats: result.Stats{DurationS: 0.05}}
	failed := none
	failed.Errors = 1
	exit1 := errors.New("exit status 1")
	empty := []string{"cznic/kv set: no operation completed: the window closed first"}
	tests := []struct {
		name              string
		doc               *result.Document
		err               error
		failed, interrupt bool
	}{
		{"an empty cell beside full ones", &result.Document{Empty: empty, Runs: []result.Run{full, none}}, exit1, false, false},
		{"a cell with errors", &result.Document{Empty: empty, Runs: []result.Run{full, failed}}, exit1, true, false},
		{"no empty cell", &result.Document{Runs: []result.Run{full}}, exit1, true, false},
		{"no document", nil, exit1, true, false},
		{"ran", &result.Document{Runs: []result.Run{full}}, nil, false, false},
		{"interrupted", &result.Document{Interrupted: true, Runs: []result.Run{full}}, errors.New("exit status 130"), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Run(context.Background(), s, stepDoc{tt.doc, tt.err}, Options{Log: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			a := doc.Steps[0]
			if (a.Error != "") != tt.failed || a.Interrupted != tt.interrupt || a.Result != tt.doc {
				t.Errorf("step a: error %q, interrupted %v, result kept %v; want failed %v, interrupted %v, the document kept",
					a.Error, a.Interrupted, a.Result == tt.doc, tt.failed, tt.interrupt)
			}
		})
	}
}
