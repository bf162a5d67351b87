package study

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"
)

// WriteHTML renders a study as one self-contained HTML page: the same
// tables and claims as WriteMarkdown.
func WriteHTML(w io.Writer, v *View) error {
	var md bytes.Buffer
	WriteMarkdown(&md, v)
	var b strings.Builder
	b.WriteString("<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>study " + html.EscapeString(v.Study.ID) + "</title>\n")
	b.WriteString("<style>body{font-family:sans-serif;max-width:80em;margin:2em auto}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:first-child,td:nth-child(2){text-align:left}.holds{color:#070}.doesnothold{color:#b00}</style>\n</head><body>\n")
	inTable := false
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "|") {
			if strings.HasPrefix(line, "|---") {
				continue
			}
			tag := "td"
			if !inTable {
				b.WriteString("<table>\n")
				inTable, tag = true, "th"
			}
			b.WriteString("<tr>")
			for _, cell := range splitRow(line) {
				class := ""
				switch cell {
				case Holds:
					class = ` class="holds"`
				case DoesNotHold:
					class = ` class="doesnothold"`
				}
				fmt.Fprintf(&b, "<%s%s>%s</%s>", tag, class, html.EscapeString(cell), tag)
			}
			b.WriteString("</tr>\n")
			continue
		}
		if inTable {
			b.WriteString("</table>\n")
			inTable = false
		}
		switch {
		case strings.HasPrefix(line, "## "):
			fmt.Fprintf(&b, "<h2>%s</h2>\n", html.EscapeString(line[3:]))
		case strings.HasPrefix(line, "# "):
			fmt.Fprintf(&b, "<h1>%s</h1>\n", html.EscapeString(line[2:]))
		case strings.HasPrefix(line, "- "):
			fmt.Fprintf(&b, "<p>• %s</p>\n", html.EscapeString(strings.ReplaceAll(line[2:], "`", "")))
		case line != "":
			fmt.Fprintf(&b, "<p>%s</p>\n", html.EscapeString(line))
		}
	}
	if inTable {
		b.WriteString("</table>\n")
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// splitRow splits a Markdown table row at unescaped bars.
func splitRow(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "| "), " |")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case strings.HasPrefix(line[i:], " | "):
			cells = append(cells, cur.String())
			cur.Reset()
			i += 2
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, cur.String())
}
