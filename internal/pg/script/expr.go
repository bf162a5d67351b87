package script

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// fn identifies a function; operators are functions too, as in pgbench,
// so that evaluation order and NULL handling are the same.
type fn uint8

const (
	fAdd fn = iota
	fSub
	fMul
	fDiv
	fMod
	fAbs
	fLeast
	fGreatest
	fDebug
	fPi
	fSqrt
	fLn
	fExp
	fInt
	fDouble
	fRandom
	fRandomGaussian
	fRandomExponential
	fRandomZipfian
	fPow
	fAnd
	fOr
	fNot
	fBitAnd
	fBitOr
	fBitXor
	fLShift
	fRShift
	fEq
	fNe
	fLe
	fLt
	fIs
	fCase
	fHashMurmur2
	fHashFnv1a
	fPermute
)

// Special argument counts.
const (
	nargsVariadic = -1 // least, greatest: at least one
	nargsCase     = -2 // odd and at least 3
	nargsHash     = -3 // 1 or 2: the seed defaults to :default_seed
	nargsPermute  = -4 // 2 or 3: the seed defaults to :default_seed
)

// namedFunc is a function a script calls by name: which one, and how many
// arguments it takes.
type namedFunc struct {
	f     fn
	nargs int
}

// funcNames are the functions a script calls by name, as pgbench's
// exprparse.y PGBENCH_FUNCTIONS lists them; operators have no name.
var funcNames = map[string]namedFunc{
	"abs": {fAbs, 1}, "least": {fLeast, nargsVariadic}, "greatest": {fGreatest, nargsVariadic},
	"debug": {fDebug, 1}, "pi": {fPi, 0}, "sqrt": {fSqrt, 1}, "ln": {fLn, 1}, "exp": {fExp, 1},
	"int": {fInt, 1}, "double": {fDouble, 1}, "random": {fRandom, 2},
	"random_gaussian": {fRandomGaussian, 3}, "random_exponential": {fRandomExponential, 3},
	"random_zipfian": {fRandomZipfian, 3}, "pow": {fPow, 2}, "power": {fPow, 2}, "mod": {fMod, 2},
	"hash": {fHashMurmur2, nargsHash}, "hash_murmur2": {fHashMurmur2, nargsHash},
	"hash_fnv1a": {fHashFnv1a, nargsHash}, "permute": {fPermute, nargsPermute},
}

// lookupFunc finds a function by its name as a script writes it.
func lookupFunc(name string) (f fn, nargs int, ok bool) {
	nf, ok := funcNames[strings.ToLower(name)]
	return nf.f, nf.nargs, ok
}

type nodeKind uint8

const (
	constNode nodeKind = iota
	varNode
	funcNode
)

// node is a parsed expression.
type node struct {
	kind nodeKind
	val  Value  // constNode
	name string // varNode, and funcNode's name for messages
	slot int    // varNode
	f    fn     // funcNode
	args []*node
}

// Env is what evaluating an expression needs from its client.
type Env struct {
	Vars Vars
	Rand *PRNG
	// Debug receives debug()'s lines; nil discards them.
	Debug io.Writer
	// Script and Command number debug()'s lines as pgbench does: the
	// script's index and the 1-based command number.
	Script, Command int
}

func (n *node) eval(env *Env) (Value, error) {
	switch n.kind {
	case constNode:
		return n.val, nil
	case varNode:
		v := env.Vars[n.slot]
		if !v.IsSet() {
			return Value{}, fmt.Errorf("undefined variable %q", n.name)
		}
		return v.resolve(n.name)
	}
	switch n.f {
	case fAnd, fOr, fCase:
		return n.lazy(env)
	}
	// Most functions take at most four arguments: keep them on the stack.
	var buf [4]Value
	args := buf[:0]
	if len(n.args) > len(buf) {
		args = make([]Value, 0, len(n.args))
	}
	args = args[:len(n.args)]
	hasNull := false
	for i, a := range n.args {
		v, err := a.eval(env)
		if err != nil {
			return Value{}, err
		}
		args[i] = v
		hasNull = hasNull || v.k == null
	}
	if hasNull && n.f != fIs && n.f != fDebug {
		return Null(), nil
	}
	return call(env, n.f, args)
}

// lazy evaluates AND, OR and CASE, which skip arguments.
func (n *node) lazy(env *Env) (Value, error) {
	if n.f == fCase {
		for i := 0; i+1 < len(n.args); i += 2 {
			c, err := n.args[i].eval(env)
			if err != nil {
				return Value{}, err
			}
			if c.truth() {
				return n.args[i+1].eval(env)
			}
		}
		return n.args[len(n.args)-1].eval(env)
	}
	a, err := n.args[0].eval(env)
	if err != nil {
		return Value{}, err
	}
	if a.k == null {
		return Null(), nil
	}
	ba, err := a.toBool()
	if err != nil {
		return Value{}, err
	}
	if ba == (n.f == fOr) {
		return Bool(ba), nil
	}
	b, err := n.args[1].eval(env)
	if err != nil {
		return Value{}, err
	}
	if b.k == null {
		return Null(), nil
	}
	bb, err := b.toBool()
	if err != nil {
		return Value{}, err
	}
	return Bool(bb), nil
}

// Errors with pgbench's wording.
var (
	errDivZero = errors.New("division by zero")
	errRange   = errors.New("random range is too large")
	errEmpty   = errors.New("empty range given to random")
)

// call computes function f of its arguments, already evaluated and none
// NULL (but for IS and debug), dispatching on f as pgbench's
// evalStandardFunc does on its tag. A direct call each, not a table of
// function values: through those the arguments, which eval keeps on its
// stack, would escape to the heap on every call.
func call(env *Env, f fn, a []Value) (Value, error) {
	switch f {
	case fAdd, fSub, fMul, fDiv, fEq, fNe, fLe, fLt:
		return arith(f, a)
	case fMod:
		return mod(a)
	case fBitAnd, fBitOr, fBitXor, fLShift, fRShift:
		return bitwise(f, a)
	case fNot:
		return not(a[0])
	case fPi:
		return Double(math.Pi), nil
	case fAbs:
		return abs(a[0])
	case fDebug:
		debugLine(env, a[0])
		return a[0], nil
	case fDouble, fSqrt, fLn, fExp:
		return ofDouble(f, a[0])
	case fInt:
		return toInt(a[0])
	case fLeast, fGreatest:
		return extremum(f, a)
	case fRandom, fRandomExponential, fRandomGaussian, fRandomZipfian:
		return randomCall(env, f, a)
	case fPow:
		return pow(a)
	case fIs:
		// pgbench compares the type and the boolean view of the value.
		return Bool(a[0].k == a[1].k && lowByte(a[0]) == lowByte(a[1])), nil
	case fHashMurmur2, fHashFnv1a:
		return hash(f, a)
	case fPermute:
		return permuteCall(a)
	}
	return Value{}, fmt.Errorf("unknown function %d", f)
}

// arith is an arithmetic operator or comparison: in double precision when
// either side is a double, as pgbench's coerceToDouble, else in bigint.
func arith(f fn, a []Value) (Value, error) {
	if a[0].k == double || a[1].k == double {
		l, r, err := twoDoubles(a)
		if err != nil {
			return Value{}, err
		}
		return doubleArith(f, l, r), nil
	}
	l, r, err := twoInts(a)
	if err != nil {
		return Value{}, err
	}
	switch f {
	case fAdd:
		return addInt(l, r)
	case fSub:
		return subInt(l, r)
	case fMul:
		return mulInt(l, r)
	case fDiv:
		return divInt(l, r)
	case fEq:
		return Bool(l == r), nil
	case fNe:
		return Bool(l != r), nil
	case fLe:
		return Bool(l <= r), nil
	}
	return Bool(l < r), nil
}

func doubleArith(f fn, l, r float64) Value {
	switch f {
	case fAdd:
		return Double(l + r)
	case fSub:
		return Double(l - r)
	case fMul:
		return Double(l * r)
	case fDiv:
		return Double(l / r)
	case fEq:
		return Bool(l == r)
	case fNe:
		return Bool(l != r)
	case fLe:
		return Bool(l <= r)
	}
	return Bool(l < r)
}

// bitwise is a bit operator, always on bigints.
func bitwise(f fn, a []Value) (Value, error) {
	l, r, err := twoInts(a)
	if err != nil {
		return Value{}, err
	}
	switch f {
	case fBitAnd:
		return Int(l & r), nil
	case fBitOr:
		return Int(l | r), nil
	case fBitXor:
		return Int(l ^ r), nil
	case fLShift:
		// C leaves shifts of 64 or more undefined; x86, where pgbench
		// runs, uses the count modulo 64.
		return Int(l << (uint64(r) & 63)), nil
	}
	return Int(l >> (uint64(r) & 63)), nil
}

// ofDouble is double() and the functions of one double.
func ofDouble(f fn, v Value) (Value, error) {
	d, err := v.toDouble()
	if err != nil {
		return Value{}, err
	}
	switch f {
	case fSqrt:
		d = math.Sqrt(d)
	case fLn:
		d = math.Log(d)
	case fExp:
		d = math.Exp(d)
	}
	return Double(d), nil
}

func twoInts(a []Value) (l, r int64, err error) {
	if l, err = a[0].toInt(); err != nil {
		return 0, 0, err
	}
	r, err = a[1].toInt()
	return l, r, err
}

func twoDoubles(a []Value) (l, r float64, err error) {
	if l, err = a[0].toDouble(); err != nil {
		return 0, 0, err
	}
	r, err = a[1].toDouble()
	return l, r, err
}

func not(v Value) (Value, error) {
	b, err := v.toBool()
	if err != nil {
		return Value{}, err
	}
	return Bool(!b), nil
}

func abs(v Value) (Value, error) {
	if v.k == integer {
		if v.i < 0 {
			return Int(-v.i), nil
		}
		return v, nil
	}
	d, err := v.toDouble()
	if err != nil {
		return Value{}, err
	}
	return Double(math.Abs(d)), nil
}

func toInt(v Value) (Value, error) {
	i, err := v.toInt()
	if err != nil {
		return Value{}, err
	}
	return Int(i), nil
}

func pow(a []Value) (Value, error) {
	l, r, err := twoDoubles(a)
	if err != nil {
		return Value{}, err
	}
	return Double(math.Pow(l, r)), nil
}

func hash(f fn, a []Value) (Value, error) {
	v, seed, err := twoInts(a)
	if err != nil {
		return Value{}, err
	}
	if f == fHashMurmur2 {
		return Int(hashMurmur2(v, uint64(seed))), nil
	}
	return Int(hashFNV1a(v, uint64(seed))), nil
}

func permuteCall(a []Value) (Value, error) {
	var x [3]int64
	for i := range x {
		v, err := a[i].toInt()
		if err != nil {
			return Value{}, err
		}
		x[i] = v
	}
	if x[1] <= 0 {
		return Value{}, errors.New("permute size parameter must be greater than zero")
	}
	return Int(permute(x[0], x[1], x[2])), nil
}

// lowByte is the byte pgbench's IS compares (the union's bool member).
func lowByte(v Value) byte {
	switch v.k {
	case boolean:
		if v.b {
			return 1
		}
	case integer:
		return byte(v.i)
	case double:
		return byte(math.Float64bits(v.f))
	}
	return 0
}

func debugLine(env *Env, v Value) {
	if env.Debug == nil {
		return
	}
	var s string
	switch v.k {
	case null:
		s = "null"
	case boolean:
		s = "boolean " + strconv.FormatBool(v.b)
	case integer:
		s = "int " + strconv.FormatInt(v.i, 10)
	case double:
		s = "double " + formatDouble(v.f)
	}
	fmt.Fprintf(env.Debug, "debug(script=%d,command=%d): %s\n", env.Script, env.Command, s)
}

// addInt, subInt and mulInt fail on overflow, as pgbench's
// pg_add_s64_overflow and its kin.
func addInt(l, r int64) (Value, error) {
	s := l + r
	if (l >= 0) == (r >= 0) && (s >= 0) != (l >= 0) {
		return Value{}, errors.New("bigint add out of range")
	}
	return Int(s), nil
}

func subInt(l, r int64) (Value, error) {
	d := l - r
	if (l >= 0) != (r >= 0) && (d >= 0) != (l >= 0) {
		return Value{}, errors.New("bigint sub out of range")
	}
	return Int(d), nil
}

func mulInt(l, r int64) (Value, error) {
	p := l * r
	if l != 0 && (p/l != r || (l == -1 && r == math.MinInt64) || (r == -1 && l == math.MinInt64)) {
		return Value{}, errors.New("bigint mul out of range")
	}
	return Int(p), nil
}

// divInt divides as pgbench: by -1 it negates, which overflows only for
// the smallest bigint.
func divInt(l, r int64) (Value, error) {
	switch {
	case r == 0:
		return Value{}, errDivZero
	case r == -1 && l == math.MinInt64:
		return Value{}, errors.New("bigint div out of range")
	case r == -1:
		return Int(-l), nil
	}
	return Int(l / r), nil
}

// mod is always on bigints, doubles included; by -1 it is 0, where Go's
// % would overflow for the smallest bigint.
func mod(a []Value) (Value, error) {
	l, r, err := twoInts(a)
	switch {
	case err != nil:
		return Value{}, err
	case r == 0:
		return Value{}, errDivZero
	case r == -1:
		return Int(0), nil
	}
	return Int(l % r), nil
}

func extremum(f fn, a []Value) (Value, error) {
	dbl := false
	for _, v := range a {
		dbl = dbl || v.k == double
	}
	if dbl {
		m, err := a[0].toDouble()
		if err != nil {
			return Value{}, err
		}
		for _, v := range a[1:] {
			d, err := v.toDouble()
			if err != nil {
				return Value{}, err
			}
			if (f == fLeast && d < m) || (f == fGreatest && d > m) {
				m = d
			}
		}
		return Double(m), nil
	}
	m, err := a[0].toInt()
	if err != nil {
		return Value{}, err
	}
	for _, v := range a[1:] {
		i, err := v.toInt()
		if err != nil {
			return Value{}, err
		}
		if (f == fLeast && i < m) || (f == fGreatest && i > m) {
			m = i
		}
	}
	return Int(m), nil
}

func randomCall(env *Env, f fn, a []Value) (Value, error) {
	lo, err := a[0].toInt()
	if err != nil {
		return Value{}, err
	}
	hi, err := a[1].toInt()
	if err != nil {
		return Value{}, err
	}
	if lo > hi {
		return Value{}, errEmpty
	}
	// pgbench refuses a range whose width (hi - lo + 1) overflows int64.
	// As lo <= hi, the difference wraps negative exactly when it overflows.
	if d := hi - lo; d < 0 || d == math.MaxInt64 {
		return Value{}, errRange
	}
	if f == fRandom {
		return Int(uniform(env.Rand, lo, hi)), nil
	}
	p, err := a[2].toDouble()
	if err != nil {
		return Value{}, err
	}
	switch f {
	case fRandomGaussian:
		if p < minGaussianParam || math.IsNaN(p) { // pgbench would loop forever on NaN
			return Value{}, fmt.Errorf("gaussian parameter must be at least %f (not %f)", minGaussianParam, p)
		}
		return Int(gaussian(env.Rand, lo, hi, p)), nil
	case fRandomZipfian:
		if p < minZipfianParam || p > maxZipfianParam || math.IsNaN(p) {
			return Value{}, fmt.Errorf("zipfian parameter must be in range [%.3f, %.0f] (not %f)", minZipfianParam, maxZipfianParam, p)
		}
		return Int(zipfian(env.Rand, lo, hi, p)), nil
	}
	if p <= 0 || math.IsNaN(p) {
		return Value{}, fmt.Errorf("exponential parameter must be greater than zero (not %f)", p)
	}
	return Int(exponential(env.Rand, lo, hi, p)), nil
}
