package report

import (
	"bufio"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
)

// A Page is a report that is not one of a family's runs (a study's): a
// title, sections of blocks, rendered for the terminal (PageText), as
// Markdown (PageMarkdown) and as one self-contained HTML page (PageHTML)
// from the same blocks, so that the three say the same in the same order.
// Its tables are Grids and its charts Charts, as the family reports'.
type Page struct {
	Title string
	// Lines say what the page is of (source, file, form), under the title.
	Lines    []string
	Sections []Section
	// Marks style an item's mark in HTML: a verdict's colour ("good",
	// "bad", "open"); an unknown mark is plain.
	Marks map[string]string
}

// A Section is a part of a page with a heading (h2).
type Section struct {
	ID, Title string
	Blocks    []Block
}

// A Block is one thing in a section: a titled (h3) group of lines, a
// list, a grid and a chart, each optional. Charts are drawn in HTML only;
// the text and Markdown forms show the grid beside which they stand.
type Block struct {
	Title string
	Lines []string
	Items []Item
	Grid  *Grid
	Chart *Chart
}

// An Item is one entry of a list: a mark ahead of it (a verdict), its
// text, and lines under it (reasons, notes).
type Item struct {
	Mark string
	Text string
	Sub  []string
}

func (b Block) chartOnly() bool {
	return b.Title == "" && len(b.Lines) == 0 && len(b.Items) == 0 && b.Grid == nil
}

// textual says whether a section has anything but charts: the text and
// Markdown forms leave out a section of charts alone.
func textual(s Section) bool {
	for _, b := range s.Blocks {
		if !b.chartOnly() {
			return true
		}
	}
	return false
}

// PageText writes p for the terminal.
func PageText(w io.Writer, p Page) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, p.Title)
	for _, l := range p.Lines {
		fmt.Fprintln(bw, l)
	}
	for _, s := range p.Sections {
		if !textual(s) {
			continue
		}
		fmt.Fprintf(bw, "\n%s\n", s.Title)
		for _, b := range s.Blocks {
			if err := textBlock(bw, b); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// textBlock writes one block: a grid under its own title, or a titled
// group of lines and items.
func textBlock(w io.Writer, b Block) error {
	if b.chartOnly() {
		return nil
	}
	if b.Grid != nil {
		fmt.Fprintln(w)
		return textGrid(w, wrapWords(*b.Grid, wrapAt))
	}
	if b.Title != "" {
		fmt.Fprintf(w, "\n%s\n", b.Title)
	}
	for _, l := range b.Lines {
		fmt.Fprintf(w, "  %s\n", l)
	}
	for _, it := range b.Items {
		fmt.Fprintf(w, "  %s%s\n", markText(it.Mark), it.Text)
		for _, l := range it.Sub {
			fmt.Fprintf(w, "      %s\n", l)
		}
	}
	return nil
}

// wrapAt is the widest cell of words a terminal grid keeps on one line.
const wrapAt = 56

// wrapWords wraps a grid of words only (every column a label: an
// environment's aspects) for the terminal, a cell past width runes onto
// lines of its own under it, so that the published and measured texts
// stand side by side in a terminal's width. A grid with figures is
// returned as it is: figures are not wrapped.
func wrapWords(g Grid, width int) Grid {
	if g.Labels < len(g.Header) {
		return g
	}
	out := g
	out.Rows = nil
	for _, r := range g.Rows {
		cells := make([][]string, len(r))
		lines := 1
		for i, c := range r {
			cells[i] = wrapText(c, width)
			lines = max(lines, len(cells[i]))
		}
		for k := range lines {
			row := make([]string, len(r))
			for i := range r {
				if k < len(cells[i]) {
					row[i] = cells[i][k]
				}
			}
			out.Rows = append(out.Rows, row)
		}
	}
	return out
}

// wrapText breaks s at spaces into lines of at most width runes (a longer
// word keeps its own line).
func wrapText(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

func markText(mark string) string {
	if mark == "" {
		return ""
	}
	return "[" + mark + "] "
}

// PageMarkdown writes p as GitHub-flavoured Markdown.
func PageMarkdown(w io.Writer, p Page) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n", mdEscape(p.Title))
	for _, l := range p.Lines {
		fmt.Fprintf(bw, "- %s\n", mdEscape(l))
	}
	for _, s := range p.Sections {
		if !textual(s) {
			continue
		}
		fmt.Fprintf(bw, "\n## %s\n", mdEscape(s.Title))
		for _, b := range s.Blocks {
			mdBlock(bw, b)
		}
	}
	return bw.Flush()
}

// mdBlock writes one block: a grid under its own title, or a titled
// group of lines and items.
func mdBlock(w io.Writer, b Block) {
	if b.chartOnly() {
		return
	}
	if b.Grid != nil {
		fmt.Fprintln(w)
		mdTable(w, *b.Grid)
		return
	}
	if b.Title != "" {
		fmt.Fprintf(w, "\n### %s\n", mdEscape(b.Title))
	}
	fmt.Fprintln(w)
	for _, l := range b.Lines {
		fmt.Fprintf(w, "%s\n\n", mdEscape(l))
	}
	for _, it := range b.Items {
		mark := ""
		if it.Mark != "" {
			mark = "**" + it.Mark + ":** "
		}
		fmt.Fprintf(w, "- %s%s\n", mark, mdEscape(it.Text))
		for _, l := range it.Sub {
			fmt.Fprintf(w, "  - %s\n", mdEscape(l))
		}
	}
}

//go:embed study.html.tmpl
var studyTemplate string

var studyPage = template.Must(template.Must(template.New("study").Funcs(template.FuncMap{
	"wide": func(s string) bool { return len([]rune(s)) > 24 },
}).Parse(studyTemplate)).New("shared").Parse(sharedTemplate)).Lookup("study")

type htmlStudy struct {
	Page
	Charts  []Chart
	ECharts template.JS
}

// PageHTML writes p as one self-contained HTML page, in the family
// reports' style: the same stylesheet, chart helpers and embedded ECharts.
func PageHTML(w io.Writer, p Page) error {
	return renderPage(w, p, echartsJS)
}

// renderPage is PageHTML with the charting script given, so tests can
// leave out its megabyte.
func renderPage(w io.Writer, p Page, echarts string) error {
	h := htmlStudy{Page: p, ECharts: template.JS(echarts)}
	for _, s := range p.Sections {
		for _, b := range s.Blocks {
			if b.Chart != nil {
				h.Charts = append(h.Charts, *b.Chart)
			}
		}
	}
	if err := studyPage.Execute(w, h); err != nil {
		return fmt.Errorf("render html: %w", err)
	}
	return nil
}

// SpreadMarkNote explains the tables' "*" for a table outside the family
// reports (a study's), in the same words and at the same bound.
func SpreadMarkNote() string {
	return fmt.Sprintf("*: an interval past ±%.0f%%, not a stable figure (rerun with more repetitions, or on a quieter machine)", spreadFlag*100)
}

// FewMarkNote explains the tables' "†" as the family tables do.
func FewMarkNote() string { return marks{few: true}.note() }
