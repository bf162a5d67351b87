package insert

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	chgo "github.com/ClickHouse/ch-go"
	"github.com/ClickHouse/ch-go/proto"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// chgoInserter writes blocks as ch-go proto.Input: typed columns filled by
// copying slices, no interface values. With BlocksPerInsert > 1 one
// client.Do runs across several batches, fed block by block through
// OnInput (SeasClick's startWrite/write/endWrite).
type chgoInserter struct {
	client *chgo.Client
	o      Options
	input  proto.Input
	body   string // the INSERT statement for table
	table  string
	stream *chgoStream
	blocks int // blocks sent through the open stream
}

var (
	_ ch.Inserter  = (*chgoInserter)(nil)
	_ ch.Committer = (*chgoInserter)(nil)
)

// openCHGo leaves ch-go's read timeout at its default (3 s): ch-go's
// receiving loop treats a read timeout as a moment to check whether the
// query's context is done and then waits again, never as a failure, so a
// long answer is waited for and a cancelled INSERT is noticed within 3 s.
func openCHGo(ctx context.Context, o Options) (ch.Inserter, error) {
	opts, err := o.DSN.CHGo(o.dial)
	if err != nil {
		return nil, fmt.Errorf("ch-go cannot use DSN %s: %w", o.DSN, err)
	}
	opts.DialTimeout = o.dialTimeout()
	c, err := chgo.Dial(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("connect with ch-go to %s: %w", o.DSN.Addr, err)
	}
	return &chgoInserter{client: c, o: o}, nil
}

// newCHGoInput makes the typed columns for b's layout.
func newCHGoInput(b *ch.Block) (proto.Input, error) {
	in := make(proto.Input, len(b.Columns))
	for i, c := range b.Columns {
		col := newCHGoColumn(c.Type)
		if col == nil {
			return nil, fmt.Errorf("ch-go path: column %s has type %s, want String or a number", c.Name, c.Type)
		}
		in[i] = proto.InputColumn{Name: c.Name, Data: col}
	}
	return in, nil
}

// fillCHGo copies b into in, reusing its memory.
func fillCHGo(b *ch.Block, in proto.Input) error {
	for i, c := range b.Columns {
		switch d := c.Data.(type) {
		case []string:
			col := in[i].Data.(*proto.ColStr)
			col.Reset()
			n := 0
			for _, s := range d {
				n += len(s)
			}
			if cap(col.Buf) < n {
				col.Buf = make([]byte, 0, n)
			}
			if cap(col.Pos) < len(d) {
				col.Pos = make([]proto.Position, 0, len(d))
			}
			for _, s := range d {
				col.Append(s)
			}
		case []uint8:
			fillCHGoColumn(in[i].Data.(*proto.ColUInt8), d)
		case []uint16:
			fillCHGoColumn(in[i].Data.(*proto.ColUInt16), d)
		case []uint32:
			fillCHGoColumn(in[i].Data.(*proto.ColUInt32), d)
		case []uint64:
			fillCHGoColumn(in[i].Data.(*proto.ColUInt64), d)
		case []int8:
			fillCHGoColumn(in[i].Data.(*proto.ColInt8), d)
		case []int16:
			fillCHGoColumn(in[i].Data.(*proto.ColInt16), d)
		case []int32:
			fillCHGoColumn(in[i].Data.(*proto.ColInt32), d)
		case []int64:
			fillCHGoColumn(in[i].Data.(*proto.ColInt64), d)
		case []float32:
			fillCHGoColumn(in[i].Data.(*proto.ColFloat32), d)
		case []float64:
			fillCHGoColumn(in[i].Data.(*proto.ColFloat64), d)
		default:
			return fmt.Errorf("ch-go path: column %s holds %T", c.Name, c.Data)
		}
	}
	return nil
}

// newCHGoColumn is the ch-go column of a ClickHouse type; nil for a type
// the blocks never hold.
func newCHGoColumn(typ string) proto.Column {
	switch typ {
	case "String":
		return new(proto.ColStr)
	case "UInt8":
		return new(proto.ColUInt8)
	case "UInt16":
		return new(proto.ColUInt16)
	case "UInt32":
		return new(proto.ColUInt32)
	case "UInt64":
		return new(proto.ColUInt64)
	case "Int8":
		return new(proto.ColInt8)
	case "Int16":
		return new(proto.ColInt16)
	case "Int32":
		return new(proto.ColInt32)
	case "Int64":
		return new(proto.ColInt64)
	case "Float32":
		return new(proto.ColFloat32)
	case "Float64":
		return new(proto.ColFloat64)
	}
	return nil
}

// fillCHGoColumn replaces col's values with d, reusing its memory.
func fillCHGoColumn[T any, C ~[]T](col *C, d []T) { *col = append((*col)[:0], d...) }

func (c *chgoInserter) Build(_ context.Context, table string, b *ch.Block) (ch.Batch, error) {
	if c.input == nil {
		in, err := newCHGoInput(b)
		if err != nil {
			return nil, err
		}
		c.input = in
	}
	if table != c.table {
		c.table, c.body = table, "INSERT INTO "+table+" "+c.input.Columns()+" VALUES"
	}
	// While a stream is open its Do is parked in OnInput, so refilling the
	// columns here is safe.
	if err := fillCHGo(b, c.input); err != nil {
		return nil, err
	}
	return ch.BatchFunc(c.send), nil
}

func (c *chgoInserter) send(ctx context.Context) error {
	if c.o.perInsert() == 1 {
		return c.client.Do(ctx, chgo.Query{Body: c.body, Input: c.input})
	}
	c.blocks++
	if c.stream == nil {
		c.stream = c.startStream()
	} else if err := c.stream.push(ctx, nil); err != nil {
		c.stream = nil
		return err
	}
	if err := c.stream.waitWritten(ctx); err != nil {
		c.stream = nil
		return err
	}
	if c.blocks < c.o.perInsert() {
		return nil
	}
	return c.Commit(ctx)
}

// Commit ends the open streamed INSERT and waits for the server.
func (c *chgoInserter) Commit(ctx context.Context) error {
	s := c.stream
	if s == nil {
		return nil
	}
	c.stream, c.blocks = nil, 0
	if err := s.push(ctx, io.EOF); err != nil {
		return err
	}
	return s.wait(ctx)
}

func (c *chgoInserter) Close() error {
	if c.stream != nil {
		c.stream.cancel()
		<-c.stream.done
	}
	return c.client.Close()
}

// chgoStream is one client.Do running across several batches.
type chgoStream struct {
	next    chan error    // nil: the input was refilled, send it; io.EOF: end the INSERT
	written chan struct{} // Do wrote a block and waits in OnInput
	// done is closed when Do returned, with its error in err: closed, not
	// sent, because several waiters (push, waitWritten, wait, Close) may
	// each be the one to see it.
	done   chan struct{}
	err    error
	cancel context.CancelFunc
}

func (c *chgoInserter) startStream() *chgoStream {
	// The stream outlives the operation that started it, so it has its own
	// context; an operation's cancellation reaches it through cancel.
	sctx, cancel := context.WithCancel(context.Background())
	s := &chgoStream{next: make(chan error), written: make(chan struct{}), done: make(chan struct{}), cancel: cancel}
	input := c.input
	go func() {
		defer close(s.done)
		s.err = c.client.Do(sctx, chgo.Query{
			Body:  c.body,
			Input: input,
			OnInput: func(ctx context.Context) error {
				select {
				case s.written <- struct{}{}:
				case <-ctx.Done():
					return ctx.Err()
				}
				select {
				case err := <-s.next:
					if errors.Is(err, io.EOF) {
						input.Reset() // nothing left to send: ch-go would resend a non-empty tail
					}
					return err
				case <-ctx.Done():
					return ctx.Err()
				}
			},
		})
	}()
	return s
}

// ended is the outcome of a stream whose Do returned early with err.
func (s *chgoStream) ended(err error) error {
	s.cancel()
	return streamErr(err)
}

// interrupted ends the stream because ctx is done.
func (s *chgoStream) interrupted(ctx context.Context) error {
	s.cancel()
	<-s.done
	return ctx.Err()
}

// push hands the parked OnInput its answer.
func (s *chgoStream) push(ctx context.Context, v error) error {
	select {
	case s.next <- v:
		return nil
	case <-s.done:
		return s.ended(s.err)
	case <-ctx.Done():
		return s.interrupted(ctx)
	}
}

// waitWritten waits until the block is on the connection.
func (s *chgoStream) waitWritten(ctx context.Context) error {
	select {
	case <-s.written:
		return nil
	case <-s.done:
		return s.ended(s.err)
	case <-ctx.Done():
		return s.interrupted(ctx)
	}
}

// wait waits for Do to return after the end of input.
func (s *chgoStream) wait(ctx context.Context) error {
	defer s.cancel()
	select {
	case <-s.done:
		return s.err
	case <-ctx.Done():
		return s.interrupted(ctx)
	}
}

func streamErr(err error) error {
	if err == nil {
		return errors.New("ch-go ended the INSERT before its last block")
	}
	return err
}

// chgoRevision is the protocol revision the round trip encodes with.
const chgoRevision = proto.Version

func roundTripCHGo(b *ch.Block) (*ch.Block, error) {
	in, err := newCHGoInput(b)
	if err != nil {
		return nil, err
	}
	if err := fillCHGo(b, in); err != nil {
		return nil, err
	}
	var buf proto.Buffer
	if err := (proto.Block{Columns: len(in), Rows: b.Rows}).EncodeBlock(&buf, chgoRevision, in); err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	res := make(proto.Results, len(in))
	for i, c := range b.Columns {
		var col proto.ColResult
		switch c.Type {
		case "String":
			col = new(proto.ColStr)
		case "Int32":
			col = new(proto.ColInt32)
		case "Int64":
			col = new(proto.ColInt64)
		}
		res[i] = proto.ResultColumn{Name: c.Name, Data: col}
	}
	var got proto.Block
	if err := got.DecodeBlock(proto.NewReader(bytes.NewReader(buf.Buf)), chgoRevision, res); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	out := &ch.Block{Rows: got.Rows}
	for i, r := range res {
		c := ch.Column{Name: r.Name, Type: b.Columns[i].Type}
		switch d := r.Data.(type) {
		case *proto.ColStr:
			v := make([]string, d.Rows())
			for j := range v {
				v[j] = d.Row(j)
			}
			c.Data = v
		case *proto.ColInt32:
			c.Data = []int32(*d)
		case *proto.ColInt64:
			c.Data = []int64(*d)
		}
		out.Columns = append(out.Columns, c)
	}
	return out, nil
}
