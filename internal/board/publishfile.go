package board

import (
	"fmt"
	"io"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// PublishFile is Publish of the study result document at path, every
// refusal the user's mistake in one line naming the file: a file that
// cannot be read, a document that is not one, or one that breaks the
// schema, whose problems it returns too, to be said each on a line of
// its own before the error.
func PublishFile(path string, id Identity, label string) ([]byte, *Published, []Problem, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, nil, nil, usage.Errorf("cannot read %s: %v", path, err)
	}
	out, p, problems, err := Publish(data, id, label)
	switch {
	case err != nil:
		return nil, nil, nil, usage.Errorf("%s: %v", path, err)
	case len(problems) > 0:
		return nil, nil, problems, usage.Errorf("%s: refused: it breaks the result schema (%d problem%s, each on a line above)", path, len(problems), map[bool]string{true: "s"}[len(problems) > 1])
	}
	return out, p, nil, nil
}

// Lines say what the copy replaced, a line per kind of value: how often,
// and how many distinct values.
func (p *Published) Lines() []string {
	out := make([]string, len(p.Removed))
	for i, r := range p.Removed {
		out[i] = fmt.Sprintf("replaced %d × %s (%d distinct)", r.Occurrences, r.Kind, len(r.Pseudonyms))
	}
	return out
}

// PublishTo publishes the document at in to out ("-": stdout), saying
// each problem of a refused document on a line of its own and, once the
// copy is written, what it replaced. A copy that cannot be written is a
// usage error naming {Output}.
func PublishTo(stdout, stderr io.Writer, in, out string, id Identity, label string) error {
	data, p, problems, err := PublishFile(in, id, label)
	for _, pr := range problems {
		fmt.Fprintf(stderr, "dbmeter: %s: %s\n", in, pr)
	}
	if err != nil {
		return err
	}
	if out == "-" {
		_, err = stdout.Write(data)
	} else {
		err = WriteFile(out, data)
	}
	if err != nil {
		return usage.Errorf("cannot write {Output} %s: %v", out, err)
	}
	for _, l := range p.Lines() {
		fmt.Fprintln(stderr, "study publish: "+l)
	}
	return nil
}
