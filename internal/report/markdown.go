package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Markdown writes each source's tables as GitHub-flavoured Markdown, ready
// to paste into an article or an issue: a heading per source, the command,
// the environment in one line, the tables and the notes.
func Markdown(w io.Writer, srcs []Source) error {
	bw := bufio.NewWriter(w)
	for i, s := range srcs {
		d := s.Doc
		e := d.Env
		if i > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "## %s\n\n", mdEscape(s.Name))
		fmt.Fprintf(bw, "`%s`\n\n", strings.ReplaceAll(d.Command, "`", "'"))
		fmt.Fprintf(bw, "dbmeter %s, %s, %d CPUs (GOMAXPROCS %d), %s, %s, %s",
			d.Tool.Version, e.CPUModel, e.CPUs, e.GOMAXPROCS, Bytes(float64(e.MemBytes)), e.Kernel, e.Go)
		if e.Disk.Path != "" && e.Disk.FS != "" {
			fmt.Fprintf(bw, ", %s", DiskSummary(e.Disk))
		}
		fmt.Fprintf(bw, ", %s\n", d.StartedAt.Format("2006-01-02 15:04 MST"))
		if d.Interrupted {
			fmt.Fprintln(bw, "\n**Interrupted:** the runs below are partial.")
		}
		for _, l := range MachineLines(d) {
			fmt.Fprintf(bw, "\n**Machine:** %s\n", mdEscape(l))
		}
		for _, t := range Tables(srcs, i) {
			fmt.Fprintln(bw)
			mdTable(bw, t)
		}
		if notes := Notes(d); len(notes) > 0 {
			fmt.Fprintln(bw)
			for _, n := range notes {
				fmt.Fprintf(bw, "- **note:** %s\n", mdEscape(n))
			}
		}
	}
	return bw.Flush()
}

func mdTable(w io.Writer, t Grid) {
	fmt.Fprintf(w, "### %s\n\n", mdEscape(t.Title))
	mdBody(w, t)
}

// mdBody is a grid in Markdown under its title: its lines, the table, the
// note and the warnings.
func mdBody(w io.Writer, t Grid) {
	for _, l := range t.Lines {
		fmt.Fprintf(w, "%s\n\n", mdEscape(l))
	}
	row := func(cells []string) {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = mdEscape(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(esc, " | "))
	}
	if len(t.Header) == 0 {
		return // a table of lines only
	}
	row(t.Header)
	align := make([]string, len(t.Header))
	for i := range align {
		align[i] = "---:"
	}
	for i := 0; i < max(t.Labels, 1) && i < len(align); i++ {
		align[i] = ":---"
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(align, " | "))
	for _, r := range t.Rows {
		row(r)
	}
	if t.Note != "" {
		fmt.Fprintf(w, "\n%s\n", mdEscape(t.Note))
	}
	for _, warn := range t.Warnings {
		fmt.Fprintf(w, "\n**WARNING:** %s\n", mdEscape(warn))
	}
}

// mdEscape keeps a cell in its column: a pipe would end it.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
