package sink

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Output is a file a command writes on request, beside a run's own
// (reports of documents, a merged document, a study's): the flag that asks
// for it, as the CLI spells it (named when the file cannot be created),
// its path ("" when not asked for; "-" for stdout) and how to write it.
type Output struct {
	Flag, Path string
	Write      func(io.Writer) error
}

// WriteOutputs writes the outputs asked for and says whether there were
// any. A file that cannot be created is a usage error.
func WriteOutputs(stdout io.Writer, outs ...Output) (wrote bool, err error) {
	for _, o := range outs {
		if o.Path == "" {
			continue
		}
		wrote = true
		if err := o.Save(stdout); err != nil {
			return true, err
		}
	}
	return wrote, nil
}

// Save writes o to its path, or to stdout for "-".
func (o Output) Save(stdout io.Writer) error {
	if o.Path == "-" {
		return o.Write(stdout)
	}
	f, err := os.Create(o.Path)
	if err != nil {
		return usage.Errorf("cannot write %s %s: %v", o.Flag, o.Path, errors.Unwrap(err))
	}
	err = o.Write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", o.Path, err)
	}
	return nil
}
