package report

import (
	"fmt"
	"io"
)

// Texts writes each source's text tables (Text); several sources each
// under a line naming it, a blank line between them.
func Texts(w io.Writer, srcs []Source) error {
	for i, s := range srcs {
		if len(srcs) > 1 {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "== %s\n", s.Name)
		}
		if err := Text(w, s.Doc); err != nil {
			return err
		}
	}
	return nil
}
