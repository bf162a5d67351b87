package script

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tInt
	tMaxIntPlusOne // 9223372036854775808, valid only after a unary minus
	tDouble
	tVar
	tIdent
	tOp // operators and punctuation, in tok.text
	tKeyword
)

type token struct {
	kind tokKind
	text string // lower case for keywords
	ival int64
	fval float64
	pos  int
}

// syntaxError is an expression that does not parse; it reads as pgbench's
// "MESSAGE (DETAIL) at column N".
type syntaxError struct {
	msg, more string
	col       int
}

func (e *syntaxError) Error() string {
	s := e.msg
	if e.more != "" {
		s += " (" + e.more + ")"
	}
	return fmt.Sprintf("%s at column %d", s, e.col+1)
}

func isAlpha(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c >= 0x80
}

func isAlnum(c byte) bool { return isAlpha(c) || ('0' <= c && c <= '9') }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// lex splits an expression into tokens as pgbench's exprscan.l does.
func lex(src string) ([]token, error) {
	var out []token
	i := 0
	for i < len(src) {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
			i++
			continue
		case c == ':' && i+1 < len(src) && isAlnum(src[i+1]):
			i++
			for i < len(src) && isAlnum(src[i]) {
				i++
			}
			out = append(out, token{kind: tVar, text: src[start+1 : i], pos: start})
			continue
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			tk, n, err := lexNumber(src[i:])
			if err != nil {
				return nil, &syntaxError{msg: err.Error(), more: src[i : i+n], col: start}
			}
			tk.pos = start
			out = append(out, tk)
			i += n
			continue
		case isAlpha(c):
			for i < len(src) && isAlnum(src[i]) {
				i++
			}
			word := src[start:i]
			switch lw := strings.ToLower(word); lw {
			case "and", "or", "not", "is", "isnull", "notnull", "null", "true", "false", "case", "when", "then", "else", "end":
				out = append(out, token{kind: tKeyword, text: lw, pos: start})
			default:
				out = append(out, token{kind: tIdent, text: word, pos: start})
			}
			continue
		}
		if i+1 < len(src) {
			switch two := src[i : i+2]; two {
			case "<>", "!=", "<=", ">=", "<<", ">>":
				if two == "!=" {
					two = "<>"
				}
				out = append(out, token{kind: tOp, text: two, pos: start})
				i += 2
				continue
			}
		}
		if strings.IndexByte("+-*/%=<>|&#~(),", c) >= 0 {
			out = append(out, token{kind: tOp, text: string(c), pos: start})
			i++
			continue
		}
		return nil, &syntaxError{msg: "unexpected character", more: string(c), col: start}
	}
	return append(out, token{kind: tEOF, pos: len(src)}), nil
}

// lexNumber reads an integer or a double at the start of s.
func lexNumber(s string) (token, int, error) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	isDouble := false
	if i < len(s) && s[i] == '.' {
		isDouble = true
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			isDouble = true
			i = j
		}
	}
	lit := s[:i]
	if !isDouble {
		if lit == "9223372036854775808" {
			return token{kind: tMaxIntPlusOne, text: lit}, i, nil
		}
		v, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			return token{}, i, fmt.Errorf("bigint constant overflow")
		}
		return token{kind: tInt, text: lit, ival: v}, i, nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return token{}, i, fmt.Errorf("double constant overflow")
	}
	return token{kind: tDouble, text: lit, fval: f}, i, nil
}

// Binding powers, lowest first, as in pgbench's exprparse.y.
const (
	precOr = iota + 1
	precAnd
	precNot
	precIs
	precCmp
	precBit
	precAdd
	precMul
	precUnary
)

// exprParser is a precedence-climbing parser equivalent to pgbench's
// bison grammar; lookup resolves variable names to slots.
type exprParser struct {
	toks   []token
	pos    int
	depth  int
	lookup func(name string) int
}

// maxDepth bounds nesting so that a hostile script cannot exhaust the stack.
const maxDepth = 500

func parseExpr(src string, lookup func(string) int) (*node, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &exprParser{toks: toks, lookup: lookup}
	n, err := p.expr(precOr)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.syntax(t)
	}
	return n, nil
}

func (p *exprParser) peek() token { return p.toks[p.pos] }
func (p *exprParser) next() token { t := p.toks[p.pos]; p.pos++; return t }

func (p *exprParser) syntax(t token) error {
	return &syntaxError{msg: "syntax error", col: t.pos}
}

func (p *exprParser) isOp(s string) bool {
	t := p.peek()
	return t.kind == tOp && t.text == s
}

func (p *exprParser) isKw(s string) bool {
	t := p.peek()
	return t.kind == tKeyword && t.text == s
}

func (p *exprParser) expect(s string, kw bool) error {
	t := p.peek()
	if (kw && t.kind == tKeyword || !kw && t.kind == tOp) && t.text == s {
		p.pos++
		return nil
	}
	return p.syntax(t)
}

func constant(v Value) *node { return &node{kind: constNode, val: v} }

func call2(f fn, name string, args ...*node) *node {
	return &node{kind: funcNode, f: f, name: name, args: args}
}

// binary returns the operator at the cursor with its function and power.
func (p *exprParser) binary() (f fn, prec int, ok bool) {
	t := p.peek()
	if t.kind == tKeyword {
		switch t.text {
		case "or":
			return fOr, precOr, true
		case "and":
			return fAnd, precAnd, true
		case "is", "isnull", "notnull":
			return fIs, precIs, true
		}
		return 0, 0, false
	}
	if t.kind != tOp {
		return 0, 0, false
	}
	switch t.text {
	case "<", ">", "=", "<=", ">=", "<>":
		return fLt, precCmp, true // the exact function is chosen later
	case "|":
		return fBitOr, precBit, true
	case "#":
		return fBitXor, precBit, true
	case "&":
		return fBitAnd, precBit, true
	case "<<":
		return fLShift, precBit, true
	case ">>":
		return fRShift, precBit, true
	case "+":
		return fAdd, precAdd, true
	case "-":
		return fSub, precAdd, true
	case "*":
		return fMul, precMul, true
	case "/":
		return fDiv, precMul, true
	case "%":
		return fMod, precMul, true
	}
	return 0, 0, false
}

func (p *exprParser) expr(min int) (*node, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, &syntaxError{msg: "expression nested too deeply", col: p.peek().pos}
	}
	defer func() { p.depth-- }()
	left, err := p.prefix()
	if err != nil {
		return nil, err
	}
	for {
		f, prec, ok := p.binary()
		if !ok || prec < min {
			return left, nil
		}
		op := p.next()
		switch prec {
		case precIs:
			left, err = p.isTail(op, left)
			if err != nil {
				return nil, err
			}
			if _, q, ok := p.binary(); ok && q == precIs {
				return nil, p.syntax(p.peek())
			}
			continue
		case precCmp:
			right, err := p.expr(prec + 1)
			if err != nil {
				return nil, err
			}
			left = comparison(op.text, left, right)
			if _, q, ok := p.binary(); ok && q == precCmp {
				return nil, p.syntax(p.peek())
			}
			continue
		}
		right, err := p.expr(prec + 1)
		if err != nil {
			return nil, err
		}
		left = call2(f, op.text, left, right)
	}
}

// comparison builds a comparison; > and >= swap their operands, so the
// right one is evaluated first, as in pgbench.
func comparison(op string, l, r *node) *node {
	switch op {
	case "<":
		return call2(fLt, op, l, r)
	case ">":
		return call2(fLt, op, r, l)
	case "<=":
		return call2(fLe, op, l, r)
	case ">=":
		return call2(fLe, op, r, l)
	case "=":
		return call2(fEq, op, l, r)
	}
	return call2(fNe, op, l, r)
}

// isTail parses what follows IS, or ISNULL/NOTNULL.
func (p *exprParser) isTail(op token, left *node) (*node, error) {
	switch op.text {
	case "isnull":
		return call2(fIs, "is", left, constant(Null())), nil
	case "notnull":
		return call2(fNot, "not", call2(fIs, "is", left, constant(Null()))), nil
	}
	not := false
	if p.isKw("not") {
		p.pos++
		not = true
	}
	t := p.next()
	var v Value
	switch {
	case t.kind == tKeyword && t.text == "null":
		v = Null()
	case t.kind == tKeyword && t.text == "true":
		v = Bool(true)
	case t.kind == tKeyword && t.text == "false":
		v = Bool(false)
	default:
		return nil, p.syntax(t)
	}
	n := call2(fIs, "is", left, constant(v))
	if not {
		n = call2(fNot, "not", n)
	}
	return n, nil
}

func (p *exprParser) prefix() (*node, error) {
	t := p.peek()
	switch {
	case t.kind == tOp && t.text == "+":
		p.pos++
		return p.expr(precUnary)
	case t.kind == tOp && t.text == "-":
		p.pos++
		if p.peek().kind == tMaxIntPlusOne {
			p.pos++
			return constant(Int(math.MinInt64)), nil
		}
		x, err := p.expr(precUnary)
		if err != nil {
			return nil, err
		}
		return call2(fSub, "-", constant(Int(0)), x), nil
	case t.kind == tOp && t.text == "~":
		p.pos++
		x, err := p.expr(precBit + 1)
		if err != nil {
			return nil, err
		}
		return call2(fBitXor, "#", constant(Int(-1)), x), nil
	case t.kind == tKeyword && t.text == "not":
		p.pos++
		x, err := p.expr(precNot)
		if err != nil {
			return nil, err
		}
		return call2(fNot, "not", x), nil
	}
	return p.primary()
}

func (p *exprParser) primary() (*node, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		return constant(Int(t.ival)), nil
	case tDouble:
		return constant(Double(t.fval)), nil
	case tVar:
		return &node{kind: varNode, name: t.text, slot: p.lookup(t.text)}, nil
	case tMaxIntPlusOne:
		return nil, &syntaxError{msg: "bigint constant overflow", more: t.text, col: t.pos}
	case tIdent:
		return p.call(t)
	case tKeyword:
		switch t.text {
		case "null":
			return constant(Null()), nil
		case "true":
			return constant(Bool(true)), nil
		case "false":
			return constant(Bool(false)), nil
		case "case":
			return p.caseExpr()
		}
	case tOp:
		if t.text == "(" {
			e, err := p.expr(precOr)
			if err != nil {
				return nil, err
			}
			if err := p.expect(")", false); err != nil {
				return nil, err
			}
			return e, nil
		}
	}
	return nil, p.syntax(t)
}

func (p *exprParser) caseExpr() (*node, error) {
	var args []*node
	for p.isKw("when") {
		p.pos++
		c, err := p.expr(precOr)
		if err != nil {
			return nil, err
		}
		if err := p.expect("then", true); err != nil {
			return nil, err
		}
		v, err := p.expr(precOr)
		if err != nil {
			return nil, err
		}
		args = append(args, c, v)
	}
	if len(args) == 0 {
		return nil, p.syntax(p.peek())
	}
	els := constant(Null())
	if p.isKw("else") {
		p.pos++
		e, err := p.expr(precOr)
		if err != nil {
			return nil, err
		}
		els = e
	}
	if err := p.expect("end", true); err != nil {
		return nil, err
	}
	return call2(fCase, "case", append(args, els)...), nil
}

func (p *exprParser) call(name token) (*node, error) {
	f, nargs, ok := lookupFunc(name.text)
	if !ok {
		return nil, &syntaxError{msg: "unexpected function name", more: name.text, col: name.pos}
	}
	if err := p.expect("(", false); err != nil {
		return nil, err
	}
	var args []*node
	if !p.isOp(")") {
		for {
			a, err := p.expr(precOr)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if !p.isOp(",") {
				break
			}
			p.pos++
		}
	}
	if err := p.expect(")", false); err != nil {
		return nil, err
	}
	wrong := &syntaxError{msg: "unexpected number of arguments", more: strings.ToLower(name.text), col: p.toks[p.pos-1].pos}
	seed := func() *node { return &node{kind: varNode, name: "default_seed", slot: p.lookup("default_seed")} }
	switch nargs {
	case nargsVariadic:
		if len(args) == 0 {
			wrong.msg = "at least one argument expected"
			return nil, wrong
		}
	case nargsHash:
		if len(args) < 1 || len(args) > 2 {
			return nil, wrong
		}
		if len(args) == 1 {
			args = append(args, seed())
		}
	case nargsPermute:
		if len(args) < 2 || len(args) > 3 {
			return nil, wrong
		}
		if len(args) == 2 {
			args = append(args, seed())
		}
	default:
		if len(args) != nargs {
			return nil, wrong
		}
	}
	return call2(f, strings.ToLower(name.text), args...), nil
}
