package ch

import (
	"context"
	"fmt"
)

// Block is a neutral columnar batch of rows: ch-go's proto.Input idea
// without its types, so that one generated block can be handed to every
// client path and each converts it the way its API wants. A Block is never
// modified by a client, so several workers may share one.
type Block struct {
	Columns []Column
	Rows    int
	// Index is the block's place in the ring it was generated in
	// (event.Ring), so that a client handed the ring before the run (an
	// external worker) is told which block to send instead of its rows.
	Index int
}

// Column is one named, typed column of a Block.
type Column struct {
	Name string
	Type string // the ClickHouse type: "String", "Int32", "UInt8", "Float64", …
	// Data holds Rows values in the Go slice of Type: []string, []int32,
	// []uint8, []float64, … (the ten numeric types of ClickHouse's
	// UInt8–Int64 and Float32/Float64).
	Data any
}

// Names lists the column names in order.
func (b *Block) Names() []string {
	out := make([]string, len(b.Columns))
	for i, c := range b.Columns {
		out[i] = c.Name
	}
	return out
}

// Head returns a Block holding the first n rows of b. It shares b's memory.
func (b *Block) Head(n int) *Block {
	if n >= b.Rows {
		return b
	}
	out := &Block{Rows: n, Index: b.Index, Columns: make([]Column, len(b.Columns))}
	for i, c := range b.Columns {
		c.Data = head(c.Name, c.Data, n)
		out.Columns[i] = c
	}
	return out
}

// PayloadBytes is the size of b's values in ClickHouse's Native format
// without compression: each string's length prefix and bytes, a number's
// width (1 byte per UInt8, …, 8 per Int64 or Float64). It is the "bytes"
// a batch moves, whatever the client.
func (b *Block) PayloadBytes() int64 {
	var n int64
	for _, c := range b.Columns {
		if d, ok := c.Data.([]string); ok {
			for _, s := range d {
				n += int64(len(s) + uvarintLen(uint64(len(s))))
			}
			continue
		}
		n += int64(width(c.Data)) * int64(b.Rows)
	}
	return n
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// Row returns row i as values, in column order, for row-wise APIs. It
// allocates: row-wise client paths pay this cost, as their users do.
func (b *Block) Row(i int, dst []any) []any {
	dst = dst[:0]
	for _, c := range b.Columns {
		dst = append(dst, at(c.Data, i))
	}
	return dst
}

// An Inserter writes blocks through one client path, over one connection.
// Building and sending are separate calls so that the client-side work and
// the network-and-server work are timed apart. An Inserter is used by one
// goroutine at a time.
type Inserter interface {
	// Build does the client-side work of inserting b into table (the
	// qualified name, db.table): converting it to the client's form. Some
	// APIs must open the INSERT first (send the statement and read the
	// table's structure back); that round trip is part of Build.
	Build(ctx context.Context, table string, b *Block) (Batch, error)
	Close() error
}

// A Batch is a built block, ready to go.
type Batch interface {
	// Send writes the block to the server. When the block ends its INSERT,
	// Send returns once the server acknowledged it; when the inserter
	// streams several blocks through one INSERT, Send of the others returns
	// once the block was written to the connection.
	Send(ctx context.Context) error
}

// BatchFunc adapts a function to Batch.
type BatchFunc func(ctx context.Context) error

// Send calls f.
func (f BatchFunc) Send(ctx context.Context) error { return f(ctx) }

// A Committer is an Inserter that can leave an INSERT open across batches
// (streaming several blocks through it). Commit ends the open INSERT, if
// any, and waits for the server's acknowledgement.
type Committer interface {
	Commit(ctx context.Context) error
}

// head, width and at do for a column's data, whatever its slice type,
// what Head, PayloadBytes and Row need: the first n values, the width of a
// number in Native, value i.
func head(name string, data any, n int) any {
	switch d := data.(type) {
	case []string:
		return d[:n]
	case []uint8:
		return d[:n]
	case []uint16:
		return d[:n]
	case []uint32:
		return d[:n]
	case []uint64:
		return d[:n]
	case []int8:
		return d[:n]
	case []int16:
		return d[:n]
	case []int32:
		return d[:n]
	case []int64:
		return d[:n]
	case []float32:
		return d[:n]
	case []float64:
		return d[:n]
	}
	panic(fmt.Sprintf("ch: column %s holds %T", name, data))
}

func width(data any) int {
	switch data.(type) {
	case []uint8, []int8:
		return 1
	case []uint16, []int16:
		return 2
	case []uint32, []int32, []float32:
		return 4
	case []uint64, []int64, []float64:
		return 8
	}
	return 0
}

func at(data any, i int) any {
	switch d := data.(type) {
	case []string:
		return d[i]
	case []uint8:
		return d[i]
	case []uint16:
		return d[i]
	case []uint32:
		return d[i]
	case []uint64:
		return d[i]
	case []int8:
		return d[i]
	case []int16:
		return d[i]
	case []int32:
		return d[i]
	case []int64:
		return d[i]
	case []float32:
		return d[i]
	case []float64:
		return d[i]
	}
	return nil
}
