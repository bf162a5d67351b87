package board

import (
	"testing"
)

// exampleDir holds the committed example: scripts/board-example.sh's
// constrained runs of s5 and their board.
const exampleDir = "../../docs/board"

// exampleBoard is the board of the committed example documents; nil when
// there are none.
func exampleBoard(t *testing.T) *Board {
	t.Helper()
	files, err := Files([]string{exampleDir})
	if err != nil || len(files) == 0 {
		return nil
	}
	b, err := Build(files, Options{Baseline: "plain"})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
