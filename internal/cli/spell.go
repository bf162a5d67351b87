package cli

import (
	"io"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// spellingWriter spells the fields a family names in the lines it prints.
type spellingWriter struct {
	w        io.Writer
	spelling map[string]string
}

func (s spellingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, usage.SpellText(string(p), s.spelling)); err != nil {
		return 0, err
	}
	return len(p), nil
}
