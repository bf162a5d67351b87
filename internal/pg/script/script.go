package script

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Script is one parsed transaction script. It is immutable.
type Script struct {
	// Name is what pgbench prints as the transaction type: the file name,
	// or "<builtin: …>" for a built-in script.
	Name     string
	Commands []Command
	ns       *Names
}

// Names is a variable namespace: names and their slots. A pgbench client
// has one set of variables for all its scripts, so the scripts of one run
// are parsed into one Names (see ParseIn) and share their values.
type Names struct {
	names []string
	slots map[string]int
}

// NewNames returns a namespace holding the predefined variables.
func NewNames(predefined ...string) *Names {
	ns := &Names{slots: map[string]int{}}
	for _, v := range predefined {
		ns.slot(v)
	}
	return ns
}

func (ns *Names) slot(v string) int {
	if i, ok := ns.slots[v]; ok {
		return i
	}
	ns.slots[v] = len(ns.names)
	ns.names = append(ns.names, v)
	return ns.slots[v]
}

// Kind is what a Command does.
type Kind uint8

// The kinds of command: SQL and each meta-command pgbench knows.
const (
	KindSQL Kind = iota
	KindSet
	KindSetShell
	KindShell
	KindSleep
	KindIf
	KindElif
	KindElse
	KindEndif
	KindStartPipeline
	KindEndPipeline
)

// Store says where an SQL command's results go (\gset, \aset).
type Store uint8

// The stores.
const (
	StoreNone Store = iota
	StoreGset       // the last result's single row into variables
	StoreAset       // the first row of every result into variables
)

// Command is one command of a script, numbered as pgbench numbers them.
type Command struct {
	Line int // 1-based line where the command starts
	// Source is the command's first line as written, which pgbench's -r
	// prints.
	Source string
	Kind   Kind
	// Var is the variable \set and \setshell assign.
	Var  string
	slot int
	expr *node // \set, \if, \elif
	SQL  *SQL
	// Store and Prefix are an SQL command's \gset or \aset.
	Store  Store
	Prefix string
	// sleep: a constant or a variable, times a unit.
	sleepUS   int64
	sleepVar  string
	sleepSlot int
	sleepUnit int64
	// shell: the words of \shell and \setshell, a variable when slot >= 0.
	words []word
	// next is, for \if, \elif and \else, the index of the next branch
	// (\elif, \else or \endif); end is the index of the chain's \endif.
	next, end int
}

type word struct {
	text string
	slot int // -1: literal
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
	// Compound says the command holds several statements joined by \;.
	Compound bool
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
	v := make(Vars, len(s.ns.names))
	for i, name := range s.ns.names {
		v[i] = predefined[name]
	}
	return v
}

// Slot returns the slot of variable name, or -1 when no script of its
// namespace names it.
func (s *Script) Slot(name string) int {
	if i, ok := s.ns.slots[name]; ok {
		return i
	}
	return -1
}

// Names returns the namespace s was parsed in; scripts with the same one
// share a client's variables.
func (s *Script) Names() *Names { return s.ns }

// Vars names the variable slots, in the order NewVars uses.
func (s *Script) Vars() []string { return append([]string(nil), s.ns.names...) }

// Eval evaluates the command's expression (\set, \if, \elif).
func (c *Command) Eval(env *Env) (Value, error) {
	v, err := c.expr.eval(env)
	if err != nil {
		return Value{}, fmt.Errorf("line %d: %w", c.Line, err)
	}
	return v, nil
}

// Set performs a \set command, storing the result in env.Vars.
func (c *Command) Set(env *Env) error {
	v, err := c.expr.eval(env)
	if err != nil {
		return fmt.Errorf("line %d: \\set %s: %w", c.Line, c.Var, err)
	}
	env.Vars[c.slot] = v
	return nil
}

// Truth evaluates an \if or \elif condition as pgbench does: non-zero
// numbers and true are true.
func (c *Command) Truth(env *Env) (bool, error) {
	v, err := c.expr.eval(env)
	if err != nil {
		return false, fmt.Errorf("line %d: \\%s: %w", c.Line, c.kindName(), err)
	}
	return v.truth(), nil
}

// Next is, for \if, \elif and \else, the index of the chain's next branch;
// End is the index of its \endif.
func (c *Command) Next() int { return c.next }

// End is the index of the \endif that closes c's \if chain.
func (c *Command) End() int { return c.end }

// Sleep returns how long a \sleep waits, reading its variable as pgbench
// does (atoi: leading digits, 0 when there are none).
func (c *Command) Sleep(vars Vars) (time.Duration, error) {
	us := c.sleepUS
	if c.sleepVar != "" {
		v := vars[c.sleepSlot]
		if !v.IsSet() {
			return 0, fmt.Errorf("line %d: \\sleep: undefined variable %q", c.Line, c.sleepVar)
		}
		us = atoi(v.String())
	}
	return time.Duration(us*c.sleepUnit) * time.Microsecond, nil
}

// atoi is C's atoi: optional spaces and sign, then digits.
func atoi(s string) int64 {
	s = strings.TrimLeft(s, " \t\n\r\f\v")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var n int64
	for i := 0; i < len(s) && isDigit(s[i]); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	if neg {
		return -n
	}
	return int64(int32(n)) // atoi returns an int
}

// ShellWords returns the words of a \shell or \setshell command with
// variables substituted.
func (c *Command) ShellWords(vars Vars) ([]string, error) {
	out := make([]string, 0, len(c.words))
	for _, w := range c.words {
		if w.slot < 0 {
			out = append(out, w.text)
			continue
		}
		v := vars[w.slot]
		if !v.IsSet() {
			return nil, fmt.Errorf("line %d: \\%s: undefined variable \"%s\"", c.Line, c.kindName(), w.text)
		}
		out = append(out, v.String())
	}
	return out, nil
}

// SetInt stores an integer into the command's variable (\setshell).
func (c *Command) SetInt(vars Vars, i int64) { vars[c.slot] = Int(i) }

func (c *Command) kindName() string {
	return [...]string{"sql", "set", "setshell", "shell", "sleep", "if", "elif", "else", "endif", "startpipeline", "endpipeline"}[c.Kind]
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

// ArgsAsPgbench is Args with pgbench's treatment of a variable that is not
// set: in simple mode the reference stays in the text as it is (":name"),
// in extended and prepared modes the parameter is NULL.
func (s *SQL) ArgsAsPgbench(dst []any, vars Vars, simple bool) []any {
	for i, slot := range s.slots {
		v := vars[slot]
		switch {
		case v.IsSet():
			dst = append(dst, v.Arg())
		case simple:
			dst = append(dst, ":"+s.Params[i])
		default:
			dst = append(dst, nil)
		}
	}
	return dst
}

// Texts appends the parameter values of s to dst as pgbench would send
// them: as text.
func (s *SQL) Texts(dst []string, vars Vars) ([]string, error) {
	for i, slot := range s.slots {
		v := vars[slot]
		if !v.IsSet() {
			return dst, fmt.Errorf("undefined variable %q", s.Params[i])
		}
		dst = append(dst, v.String())
	}
	return dst, nil
}

// Parse reads a pgbench script. predefined names the variables that exist
// before the script runs (scale, client_id, random_seed, -D definitions).
// Errors pgbench finds before connecting are found here too, each with its
// line.
func Parse(name, src string, predefined []string) (*Script, error) {
	return ParseIn(NewNames(predefined...), name, src)
}

// ParseIn parses a script into namespace ns, which the run's other
// scripts share. Parse the scripts of one run one after the other: a
// namespace is not safe for concurrent parsing.
func ParseIn(ns *Names, name, src string) (*Script, error) {
	s := &Script{Name: name, ns: ns}
	lookup := ns.slot
	bad := func(line int, format string, a ...any) error {
		return &Error{Script: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	sc := scanner{src: src, line: 1}
	for {
		sc.skipSpaceAndComments()
		if sc.pos >= len(sc.src) {
			break
		}
		line := sc.line
		first := strings.TrimSpace(sc.src[sc.pos : sc.pos+lineLen(sc.src[sc.pos:])])
		if sc.src[sc.pos] == '\\' && !strings.HasPrefix(sc.src[sc.pos:], `\;`) {
			cmd, err := parseMeta(sc.metaLine(), lookup)
			if err != nil {
				return nil, bad(line, "%v", err)
			}
			cmd.Line, cmd.Source = line, first
			if cmd.Store != StoreNone {
				n := len(s.Commands)
				if n == 0 || s.Commands[n-1].Kind != KindSQL || s.Commands[n-1].Store != StoreNone {
					return nil, bad(line, "\\%s must follow an SQL command", cmd.Store.String())
				}
				s.Commands[n-1].Store, s.Commands[n-1].Prefix = cmd.Store, cmd.Prefix
				continue
			}
			s.Commands = append(s.Commands, cmd)
			continue
		}
		q, err := sc.sql(lookup)
		if err != nil {
			return nil, bad(line, "%v", err)
		}
		if q == nil {
			continue
		}
		if i := strings.Index(first, `\`); i > 0 && !strings.HasPrefix(first[i:], `\;`) {
			first = strings.TrimSpace(first[:i]) // a \gset on the same line
		}
		s.Commands = append(s.Commands, Command{Line: line, Source: first, Kind: KindSQL, SQL: q})
	}
	if len(s.Commands) == 0 {
		return nil, bad(sc.line, "the script has no commands")
	}
	if err := s.link(); err != nil {
		return nil, err
	}
	return s, nil
}

// String is the store's command without its backslash.
func (st Store) String() string {
	if st == StoreAset {
		return "aset"
	}
	return "gset"
}

// link checks \if chains and pipelines and records where each branch
// jumps, as pgbench's CheckConditional does.
func (s *Script) link() error {
	type open struct {
		last    int // the chain's latest \if, \elif or \else
		sawElse bool
		members []int
	}
	var stack []open
	pipeline := -1
	fail := func(i int, msg string) error {
		return &Error{Script: s.Name, Line: s.Commands[i].Line, Msg: msg}
	}
	for i := range s.Commands {
		c := &s.Commands[i]
		switch c.Kind {
		case KindIf:
			stack = append(stack, open{last: i, members: []int{i}})
		case KindElif, KindElse:
			if len(stack) == 0 {
				return fail(i, fmt.Sprintf("\\%s without matching \\if", c.kindName()))
			}
			top := &stack[len(stack)-1]
			if top.sawElse {
				return fail(i, fmt.Sprintf("\\%s after \\else", c.kindName()))
			}
			s.Commands[top.last].next = i
			top.last = i
			top.sawElse = c.Kind == KindElse
			top.members = append(top.members, i)
		case KindEndif:
			if len(stack) == 0 {
				return fail(i, "\\endif without matching \\if")
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			s.Commands[top.last].next = i
			for _, m := range top.members {
				s.Commands[m].end = i
			}
		case KindStartPipeline:
			if pipeline >= 0 {
				return fail(i, "\\startpipeline: already in a pipeline")
			}
			pipeline = i
		case KindEndPipeline:
			if pipeline < 0 {
				return fail(i, "\\endpipeline: not in a pipeline")
			}
			pipeline = -1
		case KindSQL:
			if pipeline >= 0 && c.Store != StoreNone {
				return fail(i, fmt.Sprintf("\\%s is not allowed in a pipeline", c.Store.String()))
			}
		}
	}
	if len(stack) > 0 {
		return fail(len(s.Commands)-1, "\\if without matching \\endif")
	}
	if pipeline >= 0 {
		return fail(len(s.Commands)-1, "end of script reached with pipeline open")
	}
	return nil
}

// HasPipeline reports whether the script uses \startpipeline.
func (s *Script) HasPipeline() bool {
	for _, c := range s.Commands {
		if c.Kind == KindStartPipeline {
			return true
		}
	}
	return false
}

// metaWords splits a meta-command's arguments on white space, as pgbench
// does (quotes are not special).
func metaWords(s string) []string { return strings.Fields(s) }

// parseMeta parses a meta-command line (backslash included).
func parseMeta(text string, lookup func(string) int) (Command, error) {
	text = strings.TrimSpace(text[1:])
	name := text
	rest := ""
	if i := strings.IndexAny(text, " \t\r\n\f\v"); i >= 0 {
		name, rest = text[:i], text[i:]
	}
	lname := strings.ToLower(name)
	args := metaWords(rest)
	if k, ok := bareMeta[lname]; ok {
		if len(args) > 0 {
			return Command{}, fmt.Errorf("\\%s: unexpected argument (%s)", lname, args[0])
		}
		return Command{Kind: k}, nil
	}
	switch lname {
	case "set":
		return parseSet(rest, lookup)
	case "if", "elif":
		return parseIf(lname, rest, lookup)
	case "sleep":
		return parseSleep(args, lookup)
	case "setshell", "shell":
		return parseShell(lname, args, lookup)
	case "gset", "aset":
		return parseStore(lname, args)
	}
	return Command{}, fmt.Errorf("invalid command \\%s", name)
}

// bareMeta are the meta-commands that take no argument.
var bareMeta = map[string]Kind{
	"else": KindElse, "endif": KindEndif,
	"startpipeline": KindStartPipeline, "endpipeline": KindEndPipeline,
}

// parseIf parses \if and \elif: one expression, whose truth picks the branch.
func parseIf(lname, rest string, lookup func(string) int) (Command, error) {
	if strings.TrimSpace(rest) == "" {
		return Command{}, fmt.Errorf("\\%s: missing argument", lname)
	}
	e, err := parseExpr(rest, lookup)
	if err != nil {
		return Command{}, fmt.Errorf("\\%s: %w", lname, err)
	}
	k := KindIf
	if lname == "elif" {
		k = KindElif
	}
	return Command{Kind: k, expr: e}, nil
}

// parseShell parses \shell and \setshell (whose first word is the variable
// set): the command's words, each :name a variable and ::name a literal
// :name.
func parseShell(lname string, args []string, lookup func(string) int) (Command, error) {
	k, min, missing := KindShell, 1, "command"
	if lname == "setshell" {
		k, min, missing = KindSetShell, 2, "argument"
	}
	if len(args) < min {
		return Command{}, fmt.Errorf("\\%s: missing %s", lname, missing)
	}
	c := Command{Kind: k, slot: -1}
	if k == KindSetShell {
		if !ValidName(args[0]) {
			return Command{}, fmt.Errorf("\\setshell: invalid variable name: %q", args[0])
		}
		c.Var, c.slot = args[0], lookup(args[0])
		args = args[1:]
	}
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "::"):
			c.words = append(c.words, word{text: a[1:], slot: -1})
		case strings.HasPrefix(a, ":"):
			c.words = append(c.words, word{text: a[1:], slot: lookup(a[1:])})
		default:
			c.words = append(c.words, word{text: a, slot: -1})
		}
	}
	return c, nil
}

// parseStore parses \gset [prefix] and \aset, which store the previous
// query's result into variables.
func parseStore(lname string, args []string) (Command, error) {
	if len(args) > 1 {
		return Command{}, fmt.Errorf("\\%s: too many arguments", lname)
	}
	st := StoreGset
	if lname == "aset" {
		if len(args) > 0 {
			return Command{}, fmt.Errorf("\\aset: too many arguments")
		}
		st = StoreAset
	}
	c := Command{Store: st}
	if len(args) == 1 {
		c.Prefix = args[0]
	}
	return c, nil
}

func parseSet(rest string, lookup func(string) int) (Command, error) {
	rest = strings.TrimLeft(rest, " \t\r\n\f\v")
	i := 0
	for i < len(rest) && !strings.ContainsRune(" \t\r\n\f\v", rune(rest[i])) {
		i++
	}
	v := rest[:i]
	if v == "" {
		return Command{}, fmt.Errorf("\\set: missing argument")
	}
	if !ValidName(v) {
		return Command{}, fmt.Errorf("\\set: invalid variable name: %q", v)
	}
	if strings.TrimSpace(rest[i:]) == "" {
		return Command{}, fmt.Errorf("\\set %s: missing argument", v)
	}
	e, err := parseExpr(rest[i:], lookup)
	if err != nil {
		return Command{}, fmt.Errorf("\\set %s: %w", v, err)
	}
	return Command{Kind: KindSet, Var: v, slot: lookup(v), expr: e}, nil
}

func parseSleep(args []string, lookup func(string) int) (Command, error) {
	switch {
	case len(args) == 0:
		return Command{}, fmt.Errorf("\\sleep: missing argument")
	case len(args) > 2:
		return Command{}, fmt.Errorf("\\sleep: too many arguments")
	}
	c := Command{Kind: KindSleep, sleepUnit: 1_000_000}
	if a := args[0]; strings.HasPrefix(a, ":") {
		c.sleepVar, c.sleepSlot = a[1:], lookup(a[1:])
	} else {
		// pgbench splits a unit written against the number ("2ms") when
		// no unit follows, and reads the number as atoi does.
		sign := 0
		if strings.HasPrefix(a, "+") || strings.HasPrefix(a, "-") {
			sign = 1
		}
		end := sign + len(a[sign:]) - len(strings.TrimLeft(a[sign:], "0123456789"))
		if end < len(a) {
			if len(args) != 1 || end == sign {
				return Command{}, fmt.Errorf("\\sleep: invalid sleep time, must be an integer (%s)", a)
			}
			a, args = a[:end], []string{a[:end], a[end:]}
		}
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil && end > sign {
			return Command{}, fmt.Errorf("\\sleep: invalid sleep time, must be an integer (%s)", a)
		}
		c.sleepUS = int64(int32(n)) // a sign alone is atoi's 0
	}
	if len(args) == 2 {
		switch strings.ToLower(args[1]) {
		case "us":
			c.sleepUnit = 1
		case "ms":
			c.sleepUnit = 1000
		case "s":
		default:
			return Command{}, fmt.Errorf("\\sleep: unrecognized time unit, must be us, ms or s (%s)", args[1])
		}
	}
	return c, nil
}

// ValidName is pgbench's valid_variable_name: letters, digits, underscore
// and non-ASCII bytes, not starting with a digit.
func ValidName(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return true
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
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
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

// sql scans one SQL command up to ';' outside quotes and comments, or up
// to a meta-command on the same line, turning :name references into
// parameters. \; joins statements into one command. It returns nil for an
// empty command.
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
			// pgbench finds :name references by their colon, quotes or
			// not: inside a literal they are substituted too.
			q.literal(&text, &part, rest[:n], lookup)
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
			q.literal(&text, &part, rest[:n], lookup)
			sc.advance(n)
		case strings.HasPrefix(rest, `\;`):
			emit(";")
			q.Compound = true
			sc.advance(2)
		case c == '\\':
			// A meta-command ends the SQL command, as in pgbench.
			return q.finish(text.String(), part.String()), nil
		case c == ':' && len(rest) > 1 && rest[1] == ':':
			n := 2
			for n < len(rest) && rest[n] == ':' {
				n++
			}
			emit(rest[:n])
			sc.advance(n)
		case c == ':' && len(rest) > 1 && isAlpha(rest[1]):
			n := 1
			for n < len(rest) && isAlnum(rest[n]) {
				n++
			}
			q.param(&text, &part, rest[1:n], lookup)
			sc.advance(n)
		default:
			emit(rest[:1])
			sc.advance(1)
		}
	}
	return q.finish(text.String(), part.String()), nil
}

// literal emits a quoted token, turning the :name references in it into
// parameters as pgbench does (it does not look at quotes).
func (q *SQL) literal(text, part *strings.Builder, tok string, lookup func(string) int) {
	for tok != "" {
		i := strings.IndexByte(tok, ':')
		if i < 0 || i+1 >= len(tok) {
			text.WriteString(tok)
			part.WriteString(tok)
			return
		}
		text.WriteString(tok[:i])
		part.WriteString(tok[:i])
		tok = tok[i:]
		j := 1
		switch {
		case tok[1] == ':':
			for j < len(tok) && tok[j] == ':' {
				j++
			}
		case isAlpha(tok[1]):
			for j < len(tok) && isAlnum(tok[j]) {
				j++
			}
			q.param(text, part, tok[1:j], lookup)
			tok = tok[j:]
			continue
		}
		text.WriteString(tok[:j])
		part.WriteString(tok[:j])
		tok = tok[j:]
	}
}

// param turns a :name reference into the next parameter.
func (q *SQL) param(text, part *strings.Builder, name string, lookup func(string) int) {
	q.Params = append(q.Params, name)
	q.slots = append(q.slots, lookup(name))
	fmt.Fprintf(text, "$%d", len(q.Params))
	q.Parts = append(q.Parts, part.String())
	part.Reset()
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

func isIdent(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
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
