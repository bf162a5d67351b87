// Package numbers generates the rows of seed 002's table: the PHP client
// study's insert_test and select_test, ten numeric columns (u8, u16, u32,
// u64, i8, i16, i32, i64, f32, f64), 42 bytes a row in Native. Like package
// event it is deterministic for a seed and builds typed slices directly,
// so the generator is never what a benchmark measures.
package numbers

import (
	"math/rand/v2"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/event"
)

// Columns are the study's ten columns, in its order.
var Columns = []event.ColumnDef{
	{Name: "u8", Type: "UInt8"}, {Name: "u16", Type: "UInt16"}, {Name: "u32", Type: "UInt32"}, {Name: "u64", Type: "UInt64"},
	{Name: "i8", Type: "Int8"}, {Name: "i16", Type: "Int16"}, {Name: "i32", Type: "Int32"}, {Name: "i64", Type: "Int64"},
	{Name: "f32", Type: "Float32"}, {Name: "f64", Type: "Float64"},
}

// AuthorSelect is the columns seed 002's author's select scripts read, in
// their order: the eight integer ones, no floats (select i8,i16,i32,i64,
// u8,u16,u32,u64 from select_test limit N).
var AuthorSelect = []string{"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"}

// block returns rows rows of the next values of rng.
func block(rng *rand.Rand, rows int) *ch.Block {
	u8, u16, u32, u64 := make([]uint8, rows), make([]uint16, rows), make([]uint32, rows), make([]uint64, rows)
	i8, i16, i32, i64 := make([]int8, rows), make([]int16, rows), make([]int32, rows), make([]int64, rows)
	f32, f64 := make([]float32, rows), make([]float64, rows)
	for r := range rows {
		x := rng.Uint64()
		u8[r], u16[r], u32[r] = uint8(x), uint16(x>>8), uint32(x>>24)
		// Below 2^63: a PHP worker reads the rows file's numbers into
		// PHP's signed 64-bit integers, and a larger one would become a
		// float there.
		u64[r] = rng.Uint64() >> 1
		y := rng.Uint64()
		i8[r], i16[r], i32[r], i64[r] = int8(y), int16(y>>8), int32(y>>24), int64(rng.Uint64())
		// Never whole: a whole number is written without a point in the
		// rows file, and a worker's language would read it as an integer.
		f32[r] = float32(rng.IntN(1<<20)-1<<19) + 0.5
		f64[r] = float64(rng.Int64N(1<<40)-1<<39) + 0.25 + rng.Float64()/2
	}
	b := &ch.Block{Rows: rows}
	for i, d := range []any{u8, u16, u32, u64, i8, i16, i32, i64, f32, f64} {
		b.Columns = append(b.Columns, ch.Column{Name: Columns[i].Name, Type: Columns[i].Type, Data: d})
	}
	return b
}

// Ring generates n blocks of batch rows from seed, as event.Ring does for
// the event table.
func Ring(seed uint64, batch, n int) []*ch.Block {
	rng := rand.New(rand.NewPCG(seed, 0x6e756d62657273)) // "numbers"
	out := make([]*ch.Block, n)
	for i := range out {
		out[i] = block(rng, batch)
		out[i].Index = i
	}
	return out
}

// ByteColumns is the one-byte column of seed 002's Nagle test: the
// article's INSERTs of 8,170 and 8,171 rows filled clickhouse-cpp's
// 8,192-byte buffer with one byte a row.
var ByteColumns = []event.ColumnDef{{Name: "u8", Type: "UInt8"}}

// ByteRing generates n blocks of batch one-byte rows from seed.
func ByteRing(seed uint64, batch, n int) []*ch.Block {
	rng := rand.New(rand.NewPCG(seed, 0x62797465)) // "byte"
	out := make([]*ch.Block, n)
	for i := range out {
		u8 := make([]uint8, batch)
		for r := range u8 {
			u8[r] = uint8(rng.Uint32())
		}
		out[i] = &ch.Block{Rows: batch, Index: i, Columns: []ch.Column{{Name: ByteColumns[0].Name, Type: ByteColumns[0].Type, Data: u8}}}
	}
	return out
}
