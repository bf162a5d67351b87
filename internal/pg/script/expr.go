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

// lookupFunc finds a function by its name as a script writes it.
func lookupFunc(name string) (f fn, nargs int, ok bool) {
	switch strings.ToLower(name) {
	case "abs":
		return fAbs, 1, true
	case "least":
		return fLeast, nargsVariadic, true
	case "greatest":
		return fGreatest, nargsVariadic, true
	case "debug":
		return fDebug, 1, true
	case "pi":
		return fPi, 0, true
	case "sqrt":
		return fSqrt, 1, true
	case "ln":
		return fLn, 1, true
	case "exp":
		return fExp, 1, true
	case "int":
		return fInt, 1, true
	case "double":
		return fDouble, 1, true
	case "random":
		return fRandom, 2, true
	case "random_gaussian":
		return fRandomGaussian, 3, true
	case "random_exponential":
		return fRandomExponential, 3, true
	case "random_zipfian":
		return fRandomZipfian, 3, true
	case "pow", "power":
		return fPow, 2, true
	case "mod":
		return fMod, 2, true
	case "hash", "hash_murmur2":
		return fHashMurmur2, nargsHash, true
	case "hash_fnv1a":
		return fHashFnv1a, nargsHash, true
	case "permute":
		return fPermute, nargsPermute, true
	}
	return 0, 0, false
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

func call(env *Env, f fn, a []Value) (Value, error) {
	switch f {
	case fAdd, fSub, fMul, fDiv, fMod, fEq, fNe, fLe, fLt:
		return arith(f, a[0], a[1])
	case fBitAnd, fBitOr, fBitXor, fLShift, fRShift:
		l, err := a[0].toInt()
		if err != nil {
			return Value{}, err
		}
		r, err := a[1].toInt()
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
	case fNot:
		b, err := a[0].toBool()
		if err != nil {
			return Value{}, err
		}
		return Bool(!b), nil
	case fPi:
		return Double(math.Pi), nil
	case fAbs:
		if a[0].k == integer {
			if a[0].i < 0 {
				return Int(-a[0].i), nil
			}
			return a[0], nil
		}
		d, err := a[0].toDouble()
		if err != nil {
			return Value{}, err
		}
		return Double(math.Abs(d)), nil
	case fDebug:
		debugLine(env, a[0])
		return a[0], nil
	case fDouble, fSqrt, fLn, fExp:
		d, err := a[0].toDouble()
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
	case fInt:
		i, err := a[0].toInt()
		if err != nil {
			return Value{}, err
		}
		return Int(i), nil
	case fLeast, fGreatest:
		return extremum(f, a)
	case fRandom, fRandomExponential, fRandomGaussian, fRandomZipfian:
		return randomCall(env, f, a)
	case fPow:
		l, err := a[0].toDouble()
		if err != nil {
			return Value{}, err
		}
		r, err := a[1].toDouble()
		if err != nil {
			return Value{}, err
		}
		return Double(math.Pow(l, r)), nil
	case fIs:
		// pgbench compares the type and the boolean view of the value.
		return Bool(a[0].k == a[1].k && lowByte(a[0]) == lowByte(a[1])), nil
	case fHashMurmur2, fHashFnv1a:
		v, err := a[0].toInt()
		if err != nil {
			return Value{}, err
		}
		seed, err := a[1].toInt()
		if err != nil {
			return Value{}, err
		}
		if f == fHashMurmur2 {
			return Int(hashMurmur2(v, uint64(seed))), nil
		}
		return Int(hashFNV1a(v, uint64(seed))), nil
	case fPermute:
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
	return Value{}, fmt.Errorf("unknown function %d", f)
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

func arith(f fn, l, r Value) (Value, error) {
	if (l.k == double || r.k == double) && f != fMod {
		ld, err := l.toDouble()
		if err != nil {
			return Value{}, err
		}
		rd, err := r.toDouble()
		if err != nil {
			return Value{}, err
		}
		switch f {
		case fAdd:
			return Double(ld + rd), nil
		case fSub:
			return Double(ld - rd), nil
		case fMul:
			return Double(ld * rd), nil
		case fDiv:
			return Double(ld / rd), nil
		case fEq:
			return Bool(ld == rd), nil
		case fNe:
			return Bool(ld != rd), nil
		case fLe:
			return Bool(ld <= rd), nil
		}
		return Bool(ld < rd), nil
	}
	li, err := l.toInt()
	if err != nil {
		return Value{}, err
	}
	ri, err := r.toInt()
	if err != nil {
		return Value{}, err
	}
	switch f {
	case fAdd:
		s := li + ri
		if (li >= 0) == (ri >= 0) && (s >= 0) != (li >= 0) {
			return Value{}, errors.New("bigint add out of range")
		}
		return Int(s), nil
	case fSub:
		d := li - ri
		if (li >= 0) != (ri >= 0) && (d >= 0) != (li >= 0) {
			return Value{}, errors.New("bigint sub out of range")
		}
		return Int(d), nil
	case fMul:
		p := li * ri
		if li != 0 && (p/li != ri || (li == -1 && ri == math.MinInt64) || (ri == -1 && li == math.MinInt64)) {
			return Value{}, errors.New("bigint mul out of range")
		}
		return Int(p), nil
	case fEq:
		return Bool(li == ri), nil
	case fNe:
		return Bool(li != ri), nil
	case fLe:
		return Bool(li <= ri), nil
	case fLt:
		return Bool(li < ri), nil
	}
	// fDiv, fMod
	if ri == 0 {
		return Value{}, errDivZero
	}
	if ri == -1 {
		if f == fMod {
			return Int(0), nil
		}
		if li == math.MinInt64 {
			return Value{}, errors.New("bigint div out of range")
		}
		return Int(-li), nil
	}
	if f == fDiv {
		return Int(li / ri), nil
	}
	return Int(li % ri), nil
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
