package plan

import (
	"context"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Output is where a command's runs go. The CLI opens it, since only the
// CLI has the writers and the files the user named; the family that runs
// the command fills it, so that running a command is the family's code
// and not the CLI's.
type Output interface {
	Sink
	// Execute runs p into the output and writes what it measured.
	Execute(ctx context.Context, p Plan) error
	// Doc is the document being assembled.
	Doc() *result.Document
	// Abort drops the outputs of a command that measured nothing.
	Abort()
	// Finish writes the document and the reports.
	Finish(ctx context.Context) error
}

// OpenOutput opens a command's Output, with the disk under test at
// diskPath ("" for none) and secrets masked in everything it writes.
type OpenOutput func(diskPath string, secrets ...string) (Output, error)
