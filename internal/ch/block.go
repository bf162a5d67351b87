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
	Type string // the ClickHouse type: "String", "Int32" or "Int64"
	// Data holds Rows values: []string, []int32 or []int64, matching Type.
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
		switch d := c.Data.(type) {
		case []string:
			c.Data = d[:n]
		case []int32:
			c.Data = d[:n]
		case []int64:
			c.Data = d[:n]
		default:
			panic(fmt.Sprintf("ch: column %s holds %T", c.Name, c.Data))
		}
		out.Columns[i] = c
	}
	return out
}

// PayloadBytes is the size of b's values in ClickHouse's Native format
// without compression: each string's length prefix and bytes, 4 bytes per
// Int32, 8 per Int64. It is the "bytes" a batch moves, whatever the client.
func (b *Block) PayloadBytes() int64 {
	var n int64
	for _, c := range b.Columns {
		switch d := c.Data.(type) {
		case []string:
			for _, s := range d {
				n += int64(len(s) + uvarintLen(uint64(len(s))))
			}
		case []int32:
			n += 4 * int64(len(d))
		case []int64:
			n += 8 * int64(len(d))
		}
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
		switch d := c.Data.(type) {
		case []string:
			dst = append(dst, d[i])
		case []int32:
			dst = append(dst, d[i])
		case []int64:
			dst = append(dst, d[i])
		}
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
