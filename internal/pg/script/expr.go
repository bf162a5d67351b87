package script

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// An expr is a parsed \set expression.
type expr interface {
	eval(vars []Value, rng *rand.Rand) (Value, error)
}

type (
	constExpr struct{ v Value }
	varExpr   struct {
		name string
		slot int
	}
	negExpr struct{ x expr }
	binExpr struct {
		op   byte
		l, r expr
	}
	randomExpr  struct{ lo, hi expr }
	zipfianExpr struct{ lo, hi, s expr }
)

var (
	errDivZero   = errors.New("division by zero")
	errOverflow  = errors.New("bigint out of range")
	errEmptyRand = errors.New("empty range given to random")
)

func (e constExpr) eval([]Value, *rand.Rand) (Value, error) { return e.v, nil }

func (e varExpr) eval(vars []Value, _ *rand.Rand) (Value, error) {
	v := vars[e.slot]
	if !v.IsSet() {
		return Value{}, fmt.Errorf("undefined variable %q", e.name)
	}
	return v.num()
}

func (e negExpr) eval(vars []Value, rng *rand.Rand) (Value, error) {
	v, err := e.x.eval(vars, rng)
	if err != nil {
		return v, err
	}
	if v.k == double {
		return Double(-v.f), nil
	}
	if v.i == math.MinInt64 {
		return Value{}, errOverflow
	}
	return Int(-v.i), nil
}

func (e binExpr) eval(vars []Value, rng *rand.Rand) (Value, error) {
	l, err := e.l.eval(vars, rng)
	if err != nil {
		return l, err
	}
	r, err := e.r.eval(vars, rng)
	if err != nil {
		return r, err
	}
	if l.k == double || r.k == double {
		a, b := l.float(), r.float()
		switch e.op {
		case '+':
			return Double(a + b), nil
		case '-':
			return Double(a - b), nil
		case '*':
			return Double(a * b), nil
		case '/':
			if b == 0 {
				return Value{}, errDivZero
			}
			return Double(a / b), nil
		}
		return Value{}, errors.New("% needs integer operands")
	}
	return intOp(e.op, l.i, r.i)
}

// intOp does pgbench's integer arithmetic: C semantics, overflow is an error.
func intOp(op byte, a, b int64) (Value, error) {
	switch op {
	case '+':
		s := a + b
		if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
			return Value{}, errOverflow
		}
		return Int(s), nil
	case '-':
		d := a - b
		if (a >= 0 && b < 0 && d < 0) || (a < 0 && b > 0 && d >= 0) {
			return Value{}, errOverflow
		}
		return Int(d), nil
	case '*':
		if a != 0 && b != 0 {
			p := a * b
			if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
				return Value{}, errOverflow
			}
			return Int(p), nil
		}
		return Int(0), nil
	case '/', '%':
		if b == 0 {
			return Value{}, errDivZero
		}
		if b == -1 {
			if op == '%' {
				return Int(0), nil
			}
			if a == math.MinInt64 {
				return Value{}, errOverflow
			}
			return Int(-a), nil
		}
		if op == '/' {
			return Int(a / b), nil
		}
		return Int(a % b), nil
	}
	return Value{}, fmt.Errorf("unknown operator %q", op)
}

func evalInts(vars []Value, rng *rand.Rand, fn string, es ...expr) ([]int64, error) {
	out := make([]int64, 0, 3)
	for _, e := range es {
		v, err := e.eval(vars, rng)
		if err != nil {
			return nil, err
		}
		if v.k != integer {
			return nil, fmt.Errorf("%s needs integer bounds", fn)
		}
		out = append(out, v.i)
	}
	return out, nil
}

func (e randomExpr) eval(vars []Value, rng *rand.Rand) (Value, error) {
	lo, err := e.lo.eval(vars, rng)
	if err != nil {
		return lo, err
	}
	hi, err := e.hi.eval(vars, rng)
	if err != nil {
		return hi, err
	}
	if lo.k != integer || hi.k != integer {
		return Value{}, errors.New("random needs integer bounds")
	}
	return uniform(rng, lo.i, hi.i)
}

func uniform(rng *rand.Rand, lo, hi int64) (Value, error) {
	if lo > hi {
		return Value{}, errEmptyRand
	}
	n := uint64(hi) - uint64(lo) // width-1, exact even across the whole int64 range
	if n == math.MaxUint64 {
		return Int(int64(rng.Uint64())), nil
	}
	return Int(lo + int64(rng.Uint64N(n+1))), nil
}

// Zipfian parameter bounds, as pgbench enforces them.
const (
	minZipfianParam = 1.001
	maxZipfianParam = 1000.0
)

func (e zipfianExpr) eval(vars []Value, rng *rand.Rand) (Value, error) {
	b, err := evalInts(vars, rng, "random_zipfian", e.lo, e.hi)
	if err != nil {
		return Value{}, err
	}
	sv, err := e.s.eval(vars, rng)
	if err != nil {
		return sv, err
	}
	s := sv.float()
	if b[0] > b[1] {
		return Value{}, errEmptyRand
	}
	if s < minZipfianParam || s > maxZipfianParam {
		return Value{}, fmt.Errorf("zipfian parameter must be in range [%.3f, %.0f] (not %g)", minZipfianParam, maxZipfianParam, s)
	}
	return Int(b[0] - 1 + zipfian(rng, b[1]-b[0]+1, s)), nil
}

// zipfian draws from 1..n with exponent s > 1 by rejection (Devroye,
// Non-Uniform Random Variate Generation, p. 550), pgbench's method, so the
// distribution matches pgbench's.
func zipfian(rng *rand.Rand, n int64, s float64) int64 {
	if n <= 1 {
		return 1
	}
	b := math.Pow(2, s-1)
	for {
		u, v := rng.Float64(), rng.Float64()
		x := math.Floor(math.Pow(u, -1/(s-1)))
		t := math.Pow(1+1/x, s-1)
		if v*x*(t-1)/(b-1) <= t/b && x <= float64(n) {
			return int64(x)
		}
	}
}

// parser reads one expression; lookup resolves a variable name to its slot.
type parser struct {
	src    string
	pos    int
	depth  int
	lookup func(name string) int
}

func parseExpr(src string, lookup func(string) int) (expr, error) {
	p := &parser{src: src, lookup: lookup}
	e, err := p.sum()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.src) {
		return nil, fmt.Errorf("unexpected %q in expression", p.src[p.pos:])
	}
	return e, nil
}

func (p *parser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *parser) peek() byte {
	p.space()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) sum() (expr, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, errors.New("expression nested too deeply")
	}
	defer func() { p.depth-- }()
	l, err := p.product()
	if err != nil {
		return nil, err
	}
	for {
		op := p.peek()
		if op != '+' && op != '-' {
			return l, nil
		}
		p.pos++
		r, err := p.product()
		if err != nil {
			return nil, err
		}
		l = binExpr{op: op, l: l, r: r}
	}
}

func (p *parser) product() (expr, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		op := p.peek()
		if op != '*' && op != '/' && op != '%' {
			return l, nil
		}
		p.pos++
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = binExpr{op: op, l: l, r: r}
	}
}

// maxDepth bounds nesting so a hostile script cannot exhaust the stack.
const maxDepth = 200

func (p *parser) unary() (expr, error) {
	neg := false
	for {
		switch p.peek() {
		case '-':
			neg = !neg
		case '+':
		default:
			x, err := p.primary()
			if err != nil || !neg {
				return x, err
			}
			if c, ok := x.(constExpr); ok && c.v.k == integer && c.v.i != math.MinInt64 {
				return constExpr{Int(-c.v.i)}, nil
			}
			return negExpr{x}, nil
		}
		p.pos++
	}
}

func isIdent(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

func (p *parser) primary() (expr, error) {
	c := p.peek()
	switch {
	case c == 0:
		return nil, errors.New("expression ends too early")
	case c == '(':
		p.pos++
		e, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, errors.New("missing ')'")
		}
		p.pos++
		return e, nil
	case c == ':':
		p.pos++
		start := p.pos
		for p.pos < len(p.src) && isIdent(p.src[p.pos]) {
			p.pos++
		}
		name := p.src[start:p.pos]
		if name == "" {
			return nil, errors.New("':' must be followed by a variable name")
		}
		return varExpr{name: name, slot: p.lookup(name)}, nil
	case c == '.' || ('0' <= c && c <= '9'):
		return p.number()
	case isIdent(c):
		return p.call()
	}
	return nil, fmt.Errorf("unexpected %q in expression", string(c))
}

func (p *parser) number() (expr, error) {
	start := p.pos
	isFloat := false
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case '0' <= c && c <= '9':
		case c == '.':
			isFloat = true
		case (c == 'e' || c == 'E') && p.pos > start:
			isFloat = true
			if p.pos+1 < len(p.src) && (p.src[p.pos+1] == '-' || p.src[p.pos+1] == '+') {
				p.pos++
			}
		default:
			goto done
		}
		p.pos++
	}
done:
	lit := p.src[start:p.pos]
	if !isFloat {
		i, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad integer %q", lit)
		}
		return constExpr{Int(i)}, nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return nil, fmt.Errorf("bad number %q", lit)
	}
	return constExpr{Double(f)}, nil
}

func (p *parser) call() (expr, error) {
	start := p.pos
	for p.pos < len(p.src) && isIdent(p.src[p.pos]) {
		p.pos++
	}
	name := strings.ToLower(p.src[start:p.pos])
	if p.peek() != '(' {
		return nil, fmt.Errorf("unexpected %q in expression (variables are written :%s)", name, name)
	}
	want := map[string]int{"random": 2, "random_zipfian": 3}[name]
	if want == 0 {
		return nil, fmt.Errorf("function %s is not supported (supported: random, random_zipfian)", name)
	}
	p.pos++
	var args []expr
	if p.peek() != ')' {
		for {
			a, err := p.sum()
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if p.peek() != ',' {
				break
			}
			p.pos++
		}
	}
	if p.peek() != ')' {
		return nil, fmt.Errorf("missing ')' after the arguments of %s", name)
	}
	p.pos++
	if len(args) != want {
		return nil, fmt.Errorf("%s takes %d arguments, got %d", name, want, len(args))
	}
	if name == "random" {
		return randomExpr{lo: args[0], hi: args[1]}, nil
	}
	return zipfianExpr{lo: args[0], hi: args[1], s: args[2]}, nil
}
