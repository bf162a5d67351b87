package script

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Script is one parsed transaction script. It is immutable.
type Script struct {
	// Name is what pgbench prints as the transaction type: the file name,
	// or "<builtin: …>" for a built-in script.
	Name     string
	Commands []Command
	// vars names the variable slots: predefined names first, then the
	// script's own in order of appearance.
	vars []string
}

// Command is one line of a script: a \set when SQL is nil, else SQL.
type Command struct {
	Line int // 1-based line where the command starts
	// \set Var expr
	Var  string
	slot int
	expr expr
	SQL  *SQL
}

// SQL is an SQL command with its variable references numbered $1, $2, … in
// order of appearance (one parameter per reference, as pgbench does).
type SQL struct {
	Text string
	// Parts is Text's source split around the references, for
	// simple-protocol substitution: len(Parts) == len(Params)+1.
	Parts  []string
	Params []string // the variable behind $1, $2, …
	slots  []int
	// Query says the command returns rows (SELECT, WITH, VALUES, SHOW, …).
	Query bool
	// Keyword is the command's first word in lower case ("begin", "select").
	Keyword string
}

// Error is a problem in a script, at a line.
type Error struct {
	Script string
	Line   int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("%s line %d: %s", e.Script, e.Line, e.Msg) }

// Vars holds one client's variable values, indexed by slot.
type Vars []Value

// NewVars returns the variables of a client of s with the predefined values
// set; predefined names s does not use are ignored.
func (s *Script) NewVars(predefined map[string]Value) Vars {
	v := make(Vars, len(s.vars))
	for i, name := range s.vars {
		v[i] = predefined[name]
	}
	return v
}

// Set performs a \set command, storing the result in vars.
func (c *Command) Set(vars Vars, rng *rand.Rand) error {
	v, err := c.expr.eval(vars, rng)
	if err != nil {
		return fmt.Errorf("line %d: \\set %s: %w", c.Line, c.Var, err)
	}
	vars[c.slot] = v
	return nil
}

// Args appends the parameter values of s to dst, in $n order.
func (s *SQL) Args(dst []any, vars Vars) ([]any, error) {
	for i, slot := range s.slots {
		v := vars[slot]
		if !v.IsSet() {
			return dst, fmt.Errorf("undefined variable %q", s.Params[i])
		}
		dst = append(dst, v.Arg())
	}
	return dst, nil
}

// Parse reads a pgbench script. predefined names the variables that exist
// before the script runs (scale, client_id, random_seed, -D definitions); a
// reference to any other variable must be \set somewhere in the script.
func Parse(name, src string, predefined []string) (*Script, error) {
	s := &Script{Name: name}
	slots := map[string]int{}
	lookup := func(v string) int {
		if i, ok := slots[v]; ok {
			return i
		}
		slots[v] = len(s.vars)
		s.vars = append(s.vars, v)
		return slots[v]
	}
	for _, v := range predefined {
		lookup(v)
	}
	defined := map[string]bool{}
	for _, v := range predefined {
		defined[v] = true
	}
	type use struct {
		name string
		line int
	}
	var uses []use

	sc := scanner{src: src, line: 1}
	for {
		sc.skipSpaceAndComments()
		if sc.pos >= len(sc.src) {
			break
		}
		line := sc.line
		if sc.src[sc.pos] == '\\' {
			cmd, err := parseMeta(sc.metaLine(), lookup)
			if err != nil {
				return nil, &Error{Script: name, Line: line, Msg: err.Error()}
			}
			cmd.Line = line
			defined[cmd.Var] = true
			for _, v := range varsOf(cmd.expr) {
				uses = append(uses, use{v, line})
			}
			s.Commands = append(s.Commands, cmd)
			continue
		}
		q, err := sc.sql(lookup)
		if err != nil {
			return nil, &Error{Script: name, Line: line, Msg: err.Error()}
		}
		if q == nil {
			continue
		}
		for _, v := range q.Params {
			uses = append(uses, use{v, line})
		}
		s.Commands = append(s.Commands, Command{Line: line, SQL: q})
	}
	for _, u := range uses {
		if !defined[u.name] {
			return nil, &Error{Script: name, Line: u.line, Msg: fmt.Sprintf("variable %q is never set (\\set it, or define it with -D %s=VALUE)", u.name, u.name)}
		}
	}
	if len(s.Commands) == 0 {
		return nil, &Error{Script: name, Line: sc.line, Msg: "the script has no commands"}
	}
	return s, nil
}

func varsOf(e expr) []string {
	switch e := e.(type) {
	case varExpr:
		return []string{e.name}
	case negExpr:
		return varsOf(e.x)
	case binExpr:
		return append(varsOf(e.l), varsOf(e.r)...)
	case randomExpr:
		return append(varsOf(e.lo), varsOf(e.hi)...)
	case zipfianExpr:
		return append(append(varsOf(e.lo), varsOf(e.hi)...), varsOf(e.s)...)
	}
	return nil
}

// parseMeta parses a meta-command line (backslash included).
func parseMeta(text string, lookup func(string) int) (Command, error) {
	text = strings.TrimSpace(text[1:])
	word, rest, _ := strings.Cut(text, " ")
	if i := strings.IndexAny(word, "\t"); i >= 0 {
		word, rest = word[:i], word[i+1:]+" "+rest
	}
	if word != "set" {
		return Command{}, fmt.Errorf("\\%s is not supported (dbmeter runs \\set and SQL commands)", word)
	}
	rest = strings.TrimSpace(rest)
	i := 0
	for i < len(rest) && isIdent(rest[i]) {
		i++
	}
	v := rest[:i]
	if v == "" {
		return Command{}, fmt.Errorf("\\set needs a variable name and an expression")
	}
	if strings.TrimSpace(rest[i:]) == "" {
		return Command{}, fmt.Errorf("\\set %s needs an expression", v)
	}
	e, err := parseExpr(rest[i:], lookup)
	if err != nil {
		return Command{}, fmt.Errorf("\\set %s: %w", v, err)
	}
	return Command{Var: v, slot: lookup(v), expr: e}, nil
}

// scanner walks a script's source keeping the line number.
type scanner struct {
	src  string
	pos  int
	line int
}

func (sc *scanner) advance(n int) {
	sc.line += strings.Count(sc.src[sc.pos:sc.pos+n], "\n")
	sc.pos += n
}

func (sc *scanner) skipSpaceAndComments() {
	for sc.pos < len(sc.src) {
		switch c := sc.src[sc.pos]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			sc.advance(1)
		case strings.HasPrefix(sc.src[sc.pos:], "--"):
			sc.advance(lineLen(sc.src[sc.pos:]))
		default:
			return
		}
	}
}

func lineLen(s string) int {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return i
	}
	return len(s)
}

// metaLine returns the meta-command at pos, joining lines that end in a
// backslash as pgbench does.
func (sc *scanner) metaLine() string {
	var b strings.Builder
	for {
		n := lineLen(sc.src[sc.pos:])
		l := strings.TrimRight(sc.src[sc.pos:sc.pos+n], " \t\r")
		sc.advance(n)
		if strings.HasSuffix(l, "\\") && sc.pos < len(sc.src) {
			b.WriteString(l[:len(l)-1])
			b.WriteByte(' ')
			sc.advance(1)
			continue
		}
		b.WriteString(l)
		return b.String()
	}
}

// sql scans one SQL command up to ';' outside quotes and comments, turning
// :name references into parameters. It returns nil for an empty command.
func (sc *scanner) sql(lookup func(string) int) (*SQL, error) {
	q := &SQL{}
	var text, part strings.Builder
	emit := func(s string) { text.WriteString(s); part.WriteString(s) }
	for sc.pos < len(sc.src) {
		rest := sc.src[sc.pos:]
		c := rest[0]
		switch {
		case c == ';':
			sc.advance(1)
			return q.finish(text.String(), part.String()), nil
		case c == '\'' || c == '"':
			n := quoted(rest, c)
			if n < 0 {
				return nil, fmt.Errorf("unterminated %c quote", c)
			}
			emit(rest[:n])
			sc.advance(n)
		case strings.HasPrefix(rest, "--"):
			n := lineLen(rest)
			sc.advance(n)
		case strings.HasPrefix(rest, "/*"):
			n := strings.Index(rest[2:], "*/")
			if n < 0 {
				return nil, fmt.Errorf("unterminated /* comment")
			}
			emit(" ")
			sc.advance(n + 4)
		case c == '$':
			n := dollarQuoted(rest)
			if n < 0 {
				return nil, fmt.Errorf("unterminated dollar quote")
			}
			if n == 0 {
				n = 1
			}
			emit(rest[:n])
			sc.advance(n)
		case c == '\\':
			return nil, fmt.Errorf("a meta-command must start its own line (after the previous SQL command's ';')")
		case c == ':' && len(rest) > 1 && rest[1] == ':':
			emit("::")
			sc.advance(2)
		case c == ':' && len(rest) > 1 && isIdent(rest[1]):
			n := 1
			for n < len(rest) && isIdent(rest[n]) {
				n++
			}
			name := rest[1:n]
			q.Params = append(q.Params, name)
			q.slots = append(q.slots, lookup(name))
			fmt.Fprintf(&text, "$%d", len(q.Params))
			q.Parts = append(q.Parts, part.String())
			part.Reset()
			sc.advance(n)
		default:
			emit(rest[:1])
			sc.advance(1)
		}
	}
	return q.finish(text.String(), part.String()), nil
}

func (q *SQL) finish(text, lastPart string) *SQL {
	q.Parts = append(q.Parts, lastPart)
	// Trim the command as a whole, keeping Parts in step with Text.
	q.Text = strings.TrimSpace(text)
	q.Parts[0] = strings.TrimLeft(q.Parts[0], " \t\r\n")
	q.Parts[len(q.Parts)-1] = strings.TrimRight(q.Parts[len(q.Parts)-1], " \t\r\n")
	if q.Text == "" {
		return nil
	}
	word := q.Text
	if i := strings.IndexFunc(word, func(r rune) bool { return r >= 0x80 || !isIdent(byte(r)) }); i >= 0 {
		word = word[:i]
	}
	q.Keyword = strings.ToLower(word)
	switch q.Keyword {
	case "select", "with", "values", "show", "table", "explain", "fetch":
		q.Query = true
	}
	return q
}

// quoted returns the length of the quoted token at the start of s (a doubled
// quote stays inside), or -1 when it does not end.
func quoted(s string, quote byte) int {
	for i := 1; i < len(s); i++ {
		if s[i] == quote {
			if i+1 < len(s) && s[i+1] == quote {
				i++
				continue
			}
			return i + 1
		}
	}
	return -1
}

// dollarQuoted returns the length of a $tag$…$tag$ string at the start of
// s, 0 when s does not start one (a $1 parameter, say), -1 when it does
// not end.
func dollarQuoted(s string) int {
	i := 1
	for i < len(s) && isIdent(s[i]) {
		i++
	}
	if i >= len(s) || s[i] != '$' || (i > 1 && '0' <= s[1] && s[1] <= '9') {
		return 0
	}
	tag := s[:i+1]
	end := strings.Index(s[i+1:], tag)
	if end < 0 {
		return -1
	}
	return i + 1 + end + len(tag)
}

// Vars names the script's variable slots, in the order NewVars uses.
func (s *Script) Vars() []string { return append([]string(nil), s.vars...) }
