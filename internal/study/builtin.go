package study

import (
	"embed"
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// builtin holds the five studies of the seeds, s1 … s5.
//
//go:embed builtin/*.yaml
var builtin embed.FS

// Builtin lists the built-in studies, parsed, in id order.
func Builtin() ([]*Study, error) {
	entries, err := builtin.ReadDir("builtin")
	if err != nil {
		return nil, err
	}
	var out []*Study
	for _, e := range entries {
		s, err := readBuiltin(e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func readBuiltin(name string) (*Study, error) {
	data, err := builtin.ReadFile(path.Join("builtin", name))
	if err != nil {
		return nil, err
	}
	return Parse("builtin/"+name, data)
}

// Load reads a study by built-in id (s5) or from a file. A file with
// mistakes is a usage error listing every one.
func Load(idOrFile string) (*Study, error) {
	if !strings.ContainsAny(idOrFile, "/.") {
		s, err := readBuiltin(idOrFile + ".yaml")
		if err == nil {
			return s, nil
		}
		if _, ok := err.(Errors); ok {
			return s, err
		}
		if _, serr := os.Stat(idOrFile); serr != nil {
			return nil, usage.Errorf("no built-in study %q and no such file: built-in are %s", idOrFile, strings.Join(builtinIDs(), ", "))
		}
	}
	data, err := os.ReadFile(idOrFile)
	if err != nil {
		return nil, usage.Errorf("read study: %v", err)
	}
	s, err := Parse(idOrFile, data)
	if err != nil {
		return s, usage.Wrap(err) // s as read, for CheckSteps (Parse)
	}
	return s, nil
}

func builtinIDs() []string {
	entries, _ := builtin.ReadDir("builtin")
	var ids []string
	for _, e := range entries {
		ids = append(ids, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	return ids
}

// List is the built-in studies as study list prints them: each one's id
// and title, and its source on a line of its own below.
func List() (string, error) {
	all, err := Builtin()
	var b strings.Builder
	for _, s := range all {
		fmt.Fprintf(&b, "%-4s %s\n     %s\n", s.ID, s.Title, s.Source)
	}
	return b.String(), err
}

// Describe writes a study's summary: steps and what they scale.
func Describe(s *Study) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\nsource: %s\n", s.ID, s.Title, s.Source)
	if s.About != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(s.About))
	}
	if s.Scaling != "" {
		fmt.Fprintf(&b, "\nscaling: %s\n", strings.TrimSpace(s.Scaling))
	}
	fmt.Fprintf(&b, "\nsteps:\n")
	for _, st := range s.Steps {
		fmt.Fprintf(&b, "  %s:\n    full:  dbmeter %s\n", st.ID, st.Run)
		if st.Quick != "" {
			fmt.Fprintf(&b, "    quick: dbmeter %s\n", st.Quick)
		}
		if st.Why != "" {
			fmt.Fprintf(&b, "    %s\n", oneLine(st.Why))
		}
	}
	fmt.Fprintf(&b, "\ntables: %d, published figures: %d, claims: %d\n", len(s.Tables), s.publishedCount(), len(s.Claims))
	b.WriteString(describeVerdicts(s)) // describe.go
	return b.String()
}

func (s *Study) publishedCount() int {
	n := 0
	for _, t := range s.Tables {
		for _, r := range t.rows {
			for _, v := range r.Values {
				if v != nil {
					n++
				}
			}
		}
	}
	return n
}
