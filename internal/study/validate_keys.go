package study

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dbmeter/dbmeter/internal/names"
)

// keys reports every key of n that the field of type t it fills does not
// have, with the nearest key it does ("rowz" → rows), and marks the
// suggested field's own mistakes (missing, empty) as consequences of the
// typo, not said again. Decoding with the library's KnownFields stops at
// the first unknown key and names no path; this walk finds them all.
func (v *validator) keys(n *yaml.Node, t reflect.Type, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == reflect.TypeOf(yaml.Node{}):
		return // read by hand (published)
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, c := range n.Content {
			v.keys(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
		}
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := yamlFields(t)
		known := make([]string, 0, len(fields))
		for k := range fields {
			known = append(known, k)
		}
		sort.Strings(known)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			p := join(path, k.Value)
			ft, ok := fields[k.Value]
			if ok {
				v.keys(n.Content[i+1], ft, p)
				continue
			}
			if best := names.Closest(k.Value, known); best != "" {
				v.addAt(k.Line, p, "unknown key %q: did you mean %s?", k.Value, best)
				v.consequence[join(path, best)] = true
				continue
			}
			v.addAt(k.Line, p, "unknown key %q: %s takes %s", k.Value, orTop(path), strings.Join(known, ", "))
		}
	}
}

// yamlFields maps the YAML keys of struct type t to their fields' types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || tag == "-" {
			continue
		}
		if tag == "" {
			tag = strings.ToLower(f.Name)
		}
		out[tag] = f.Type
	}
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func orTop(path string) string {
	if path == "" {
		return "a study"
	}
	return path
}

// addAt records a mistake at a line known from the node itself.
func (v *validator) addAt(line int, field, format string, args ...any) {
	v.errs = append(v.errs, Error{File: v.file, Line: max(line, 1), Field: field, Msg: fmt.Sprintf(format, args...)})
}

// typeErrors records the decoder's type mistakes ("cannot unmarshal !!str
// `x` into float64"), each at its line with the field on that line, and
// marks those fields so that what their failed decoding left empty is
// not reported again.
func (v *validator) typeErrors(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	byLine := map[int]string{}
	for p, l := range v.lines {
		if q, ok := byLine[l]; !ok || len(p) > len(q) {
			byLine[l] = p // the deepest field on the line
		}
	}
	for _, m := range te.Errors {
		line := 1
		if n, _ := fmt.Sscanf(m, "line %d:", &line); n == 1 {
			m = strings.TrimSpace(m[strings.Index(m, ":")+1:])
		}
		m = strings.NewReplacer("cannot unmarshal", "cannot read", "!!str", "text", "!!seq", "a list", "!!map", "a mapping", "!!int", "a number", "!!float", "a number", "!!bool", "true or false").Replace(m)
		if i := strings.LastIndex(m, " into "); i >= 0 {
			m = m[:i] + " as " + goType(m[i+len(" into "):])
		}
		field := byLine[line]
		v.addAt(line, field, "%s", m)
		v.consequence[field] = true
	}
	return nil
}

// dropConsequences removes the mistakes that follow from one already
// said (a misspelled key's field missing, a field that did not decode
// checked as empty) and orders the rest by line.
func (v *validator) dropConsequences() {
	var keep Errors
	for _, e := range v.errs {
		if !strings.HasPrefix(e.Msg, "unknown key") && !strings.HasPrefix(e.Msg, "cannot read") && v.follows(e.Field) {
			continue
		}
		keep = append(keep, e)
	}
	sort.SliceStable(keep, func(i, j int) bool { return keep[i].Line < keep[j].Line })
	v.errs = keep
}

// follows says whether field is, or is under, a field marked as a
// consequence of another mistake.
func (v *validator) follows(field string) bool {
	for p := field; p != ""; {
		if v.consequence[p] {
			return true
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return false
}

// syntaxError places a YAML syntax error on the line where the text stops
// being YAML. The library reports the line where the enclosing block
// began (a bad indent on line 30 of a list that starts on line 22 is
// "line 22"); the first prefix of the file, from that line on, that fails
// with the same complaint ends at the line that is wrong.
func syntaxError(file string, data []byte, err error) Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for k := max(line, 1); k <= len(lines); k++ {
		var n yaml.Node
		perr := yaml.Unmarshal(bytes.Join(lines[:k], nil), &n)
		if perr != nil && strings.HasSuffix(perr.Error(), msg) {
			line = k
			break
		}
	}
	return Error{File: file, Line: line, Msg: "not YAML: " + msg}
}

// goType names a Go type a study field has in the file's terms.
func goType(t string) string {
	switch {
	case t == "float64" || t == "float32":
		return "a number"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "a whole number"
	case t == "bool":
		return "true or false"
	case t == "string":
		return "text"
	case t == "study.Ref":
		return "a cell, [table, row, column]"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	}
	return "a mapping"
}

// With is es and more together, in the order of the file's lines.
func (es Errors) With(more Errors) Errors {
	out := append(append(Errors{}, es...), more...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
