package query

import (
	"math"

	"github.com/ClickHouse/ch-go/proto"
)

// Tally is what walking a result produced: a checksum of the values, so
// the compiler cannot drop the walk, and their size in bytes.
type Tally struct {
	Sum   uint64
	Bytes int64
}

// walkRows visits a block row by row, and within each row every column,
// choosing each value's type as it goes: what a row-oriented API does (the
// seed's SeasClick loop). The type switch runs rows × columns times.
func walkRows(cols []proto.ColResult) Tally {
	var t Tally
	n := blockRows(cols)
	for i := 0; i < n; i++ {
		for _, c := range cols {
			v, size := valueAt(c, i)
			t.Sum += v
			t.Bytes += size
		}
	}
	return t
}

// walkColumns visits a block column by column: the type is chosen once per
// column, then its values are read in one tight loop (the seed's OrzClick
// loop).
func walkColumns(cols []proto.ColResult) Tally {
	var t Tally
	for _, c := range cols {
		s, b := walkColumn(c)
		t.Sum += s
		t.Bytes += b
	}
	return t
}

func blockRows(cols []proto.ColResult) int {
	if len(cols) == 0 {
		return 0
	}
	return cols[0].Rows()
}

// valueAt folds value i of c into a number and reports its size. Types
// without a case count rows only.
func valueAt(c proto.ColResult, i int) (uint64, int64) {
	switch c := c.(type) {
	case *proto.ColAuto:
		return valueAt(c.Data, i)
	case *proto.ColUInt64:
		return (*c)[i], 8
	case *proto.ColInt64:
		return uint64((*c)[i]), 8
	case *proto.ColFloat64:
		return math.Float64bits((*c)[i]), 8
	case *proto.ColStr:
		p := c.Pos[i]
		return uint64(p.End - p.Start), int64(p.End - p.Start)
	case *proto.ColUInt32:
		return uint64((*c)[i]), 4
	case *proto.ColInt32:
		return uint64((*c)[i]), 4
	case *proto.ColFloat32:
		return uint64(math.Float32bits((*c)[i])), 4
	case *proto.ColDateTime:
		return uint64(c.Data[i]), 4
	case *proto.ColDate:
		return uint64((*c)[i]), 2
	case *proto.ColUInt16:
		return uint64((*c)[i]), 2
	case *proto.ColInt16:
		return uint64((*c)[i]), 2
	case *proto.ColUInt8:
		return uint64((*c)[i]), 1
	case *proto.ColInt8:
		return uint64((*c)[i]), 1
	case *proto.ColDate32:
		return uint64((*c)[i]), 4
	case *proto.ColDateTime64:
		return uint64(c.Data[i]), 8
	case *proto.ColDecimal32:
		return uint64((*c)[i]), 4
	case *proto.ColDecimal64:
		return uint64((*c)[i]), 8
	case *proto.ColDecimal128:
		return (*c)[i].Low, 16
	case *proto.ColDecimal256:
		return (*c)[i].Low.Low, 32
	case *proto.ColLowCardinality[string]:
		s := c.Row(i)
		return uint64(len(s)), int64(len(s)) // the decoded value, as a scan sees it
	case *proto.ColNullable[string]:
		v := c.Row(i)
		return uint64(len(v.Value)), int64(len(v.Value))
	case *proto.ColNullable[int64]:
		return nullable(c.Row(i), 8, func(v int64) uint64 { return uint64(v) })
	case *proto.ColNullable[uint64]:
		return nullable(c.Row(i), 8, func(v uint64) uint64 { return v })
	case *proto.ColNullable[float64]:
		return nullable(c.Row(i), 8, math.Float64bits)
	case *proto.ColNullable[int32]:
		return nullable(c.Row(i), 4, func(v int32) uint64 { return uint64(v) })
	}
	return 0, 0
}

// nullable folds a Nullable value: a NULL counts no bytes, as a scan into
// a nil pointer reads none.
func nullable[T any](v proto.Nullable[T], size int64, fold func(T) uint64) (uint64, int64) {
	if !v.Set {
		return 0, 0
	}
	return fold(v.Value), size
}

// walkColumn folds every value of c. Each case is the same loop over a
// different element type; generics would hide the point being measured.
func walkColumn(c proto.ColResult) (sum uint64, bytes int64) {
	switch c := c.(type) {
	case *proto.ColAuto:
		return walkColumn(c.Data)
	case *proto.ColUInt64:
		for _, v := range *c {
			sum += v
		}
		return sum, 8 * int64(len(*c))
	case *proto.ColInt64:
		for _, v := range *c {
			sum += uint64(v)
		}
		return sum, 8 * int64(len(*c))
	case *proto.ColFloat64:
		for _, v := range *c {
			sum += math.Float64bits(v)
		}
		return sum, 8 * int64(len(*c))
	case *proto.ColStr:
		for _, p := range c.Pos {
			sum += uint64(p.End - p.Start)
		}
		return sum, int64(sum)
	case *proto.ColUInt32:
		for _, v := range *c {
			sum += uint64(v)
		}
		return sum, 4 * int64(len(*c))
	case *proto.ColInt32:
		for _, v := range *c {
			sum += uint64(v)
		}
		return sum, 4 * int64(len(*c))
	case *proto.ColFloat32:
		for _, v := range *c {
			sum += uint64(math.Float32bits(v))
		}
		return sum, 4 * int64(len(*c))
	case *proto.ColDateTime:
		for _, v := range c.Data {
			sum += uint64(v)
		}
		return sum, 4 * int64(len(c.Data))
	case *proto.ColDate:
		for _, v := range *c {
			sum += uint64(v)
		}
		return sum, 2 * int64(len(*c))
	case *proto.ColUInt16:
		for _, v := range *c {
			sum += uint64(v)
		}
		return sum, 2 * int64(len(*c))
	case *proto.ColInt16:
		for _, v := range *c {
			sum += uint64(v)
		}
		return sum, 2 * int64(len(*c))
	case *proto.ColUInt8:
		for _, v := range *c {
			sum += uint64(v)
		}
		return sum, int64(len(*c))
	case *proto.ColInt8:
		for _, v := range *c {
			sum += uint64(v)
		}
		return sum, int64(len(*c))
	}
	// The wider, rarer types (DateTime64, Decimal, LowCardinality,
	// Nullable): value by value.
	for i := range c.Rows() {
		v, b := valueAt(c, i)
		sum += v
		bytes += b
	}
	return sum, bytes
}

// WalkBlock walks a block in mode d.
func WalkBlock(d Decode, cols []proto.ColResult) Tally {
	if d == Column {
		return walkColumns(cols)
	}
	return walkRows(cols)
}
