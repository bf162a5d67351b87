package standin

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ClickHouse/ch-go/compress"
	"github.com/ClickHouse/ch-go/proto"
)

// nativeConn is one native-protocol connection, served the way a server
// does: Hello, then Ping and Query packets until the client hangs up.
type nativeConn struct {
	s    *Server
	conn *peekedConn
	id   int64
	r    *proto.Reader
	buf  proto.Buffer
	rev  int // the revision agreed: the lower of the client's and ours
	db   string
	name string // the client's name and version, for the log
}

func (n *nativeConn) serve() {
	n.r = proto.NewReader(n.conn)
	if err := n.hello(); err != nil {
		return
	}
	for {
		code, err := n.r.UVarInt()
		if err != nil {
			return
		}
		switch proto.ClientCode(code) {
		case proto.ClientCodePing:
			proto.ServerCodePong.Encode(&n.buf)
			err = n.flush()
		case proto.ClientCodeQuery:
			err = n.query()
		case proto.ClientCodeCancel:
			// A cancel that came after the query ended: nothing to stop.
		default:
			err = fmt.Errorf("unexpected packet %d", code)
		}
		if err != nil {
			return
		}
	}
}

func (n *nativeConn) flush() error {
	_, err := n.conn.Write(n.buf.Buf)
	n.buf.Reset()
	return err
}

func (n *nativeConn) hello() error {
	code, err := n.r.UVarInt()
	if err != nil || proto.ClientCode(code) != proto.ClientCodeHello {
		return fmt.Errorf("want Hello, got packet %d: %v", code, err)
	}
	var h proto.ClientHello
	if err := h.Decode(n.r); err != nil {
		return err
	}
	n.rev = min(h.ProtocolVersion, proto.Version)
	n.db = h.Database
	if n.db == "" {
		n.db = "default"
	}
	n.name = fmt.Sprintf("%s %d.%d (revision %d)", h.Name, h.Major, h.Minor, h.ProtocolVersion)
	major, minor, patch := versionParts(n.s.opts.Version)
	// A server sends its own revision and encodes the fields the client's
	// revision knows.
	sh := proto.ServerHello{Name: "dbmeter-standin", Major: major, Minor: minor, Revision: proto.Version,
		Timezone: "UTC", DisplayName: "dbmeter-standin", Patch: patch}
	sh.EncodeAware(&n.buf, n.rev)
	if err := n.flush(); err != nil {
		return err
	}
	if proto.FeatureAddendum.In(n.rev) {
		if _, err := n.r.Str(); err != nil { // the quota key
			return err
		}
	}
	return nil
}

func versionParts(v string) (major, minor, patch int) {
	parts := strings.SplitN(v, ".", 4)
	nums := make([]int, 3)
	for i := range min(len(parts), 3) {
		nums[i], _ = strconv.Atoi(parts[i])
	}
	return nums[0], nums[1], nums[2]
}

// decodeQuery reads a Query packet at n's revision. Before revision 54429
// (clickhouse-go v1 speaks 54213) settings were sent in a binary form whose
// values only the setting's type tells how to read: the stand-in refuses
// them rather than guess.
func (n *nativeConn) decodeQuery() (proto.Query, error) {
	var q proto.Query
	if proto.FeatureSettingsSerializedAsStrings.In(n.rev) {
		return q, q.DecodeAware(n.r, n.rev)
	}
	var err error
	if q.ID, err = n.r.Str(); err != nil {
		return q, err
	}
	if err := q.Info.DecodeAware(n.r, n.rev); err != nil {
		return q, err
	}
	key, err := n.r.Str()
	if err != nil {
		return q, err
	}
	if key != "" {
		return q, &exception{Code: codeNotImplemented, Msg: fmt.Sprintf("the stand-in reads settings (here %s) only in the string form of protocol revision 54429 and later; this client speaks %d", key, n.rev)}
	}
	stage, err := n.r.UVarInt()
	if err != nil {
		return q, err
	}
	comp, err := n.r.UVarInt()
	if err != nil {
		return q, err
	}
	q.Stage, q.Compression = proto.Stage(stage), proto.Compression(comp)
	q.Body, err = n.r.Str()
	return q, err
}

// query serves one query: its packet, the external-tables end, and then
// the answer, or for an INSERT the data blocks and the acknowledgement.
func (n *nativeConn) query() error {
	q, err := n.decodeQuery()
	var ex *exception
	if err != nil && !errors.As(err, &ex) {
		return err
	}
	e := Entry{Conn: n.id, Protocol: "native", TLS: n.conn.tls, Client: n.name, Revision: n.rev,
		QueryID: q.ID, Query: q.Body, Compressed: q.Compression == proto.CompressionEnabled}
	if ex != nil {
		// The rest of the packet cannot be read: answer and hang up.
		n.fail(&e, ex)
		return err
	}
	e.Settings = map[string]string{}
	method := compress.LZ4
	for _, s := range q.Settings {
		k := s.Key
		if s.Important {
			k += "!"
		}
		e.Settings[k] = s.Value
		if s.Key == "network_compression_method" && strings.EqualFold(s.Value, "zstd") {
			method = compress.ZSTD
		}
	}
	if _, err := n.readData(e.Compressed, nil); err != nil { // external tables: none, an empty block
		return err
	}
	for _, s := range q.Settings {
		if s.Important && !knownSetting(s.Key) {
			return n.fail(&e, errorf(codeUnknownSetting, "Unknown setting '%s'", s.Key))
		}
	}
	w := blockWriter{n: n, compressed: e.Compressed, method: method}
	body, err := substitute(q.Body, q.Parameters)
	if err != nil {
		return n.fail(&e, err)
	}
	if len(q.Parameters) > 0 {
		e.Parameters = map[string]string{}
		for _, p := range q.Parameters {
			e.Parameters[p.Key] = p.Value
		}
	}
	st, err := n.s.cat.run(body, n.s.info(n.db, n.rev))
	if err != nil {
		return n.fail(&e, err)
	}
	switch {
	case st.insert != nil:
		return n.insert(&e, &w, st)
	case st.r != nil:
		if err := w.result(st.r); err != nil {
			return n.fail(&e, err)
		}
	}
	proto.ServerCodeEndOfStream.Encode(&n.buf)
	n.s.log.add(e)
	return n.flush()
}

// fail answers err as an exception. Only a protocol error (not an
// *exception) ends the connection.
func (n *nativeConn) fail(e *Entry, err error) error {
	var ex *exception
	if !errors.As(err, &ex) {
		ex = &exception{Code: codeNotImplemented, Msg: err.Error()}
	}
	e.Err = ex.Error()
	n.s.log.add(*e)
	proto.ServerCodeException.Encode(&n.buf)
	(&proto.Exception{Code: proto.Error(ex.Code), Name: "DB::Exception", Message: ex.Msg}).EncodeAware(&n.buf, n.rev)
	return n.flush()
}

// insert answers the INSERT's header (its columns, no rows), then reads
// data blocks until the empty one that ends the INSERT, counting rows.
// The rows count in the table only when the INSERT completes, which is
// when the client calls them acknowledged.
func (n *nativeConn) insert(e *Entry, w *blockWriter, st statement) error {
	header := make(proto.Input, len(st.cols))
	for i, c := range st.cols {
		b, err := newHeaderColumn(c.Type)
		if err != nil {
			return n.fail(e, err)
		}
		header[i] = proto.InputColumn{Name: c.Name, Data: b}
	}
	if err := w.block(header, 0); err != nil {
		return err
	}
	if err := n.flush(); err != nil {
		return err
	}
	var res proto.Results
	for {
		b, err := n.readData(e.Compressed, &res)
		if err != nil {
			var ex *exception
			if errors.As(err, &ex) {
				if ex.Code == codeQueryCancelled {
					e.Err = ex.Error()
					n.s.log.add(*e)
					return nil
				}
				return n.fail(e, err)
			}
			e.Err = "connection lost: " + err.Error()
			n.s.log.add(*e)
			return err
		}
		if b.End() {
			break
		}
		if err := matchColumns(res, st.cols); err != nil {
			return n.fail(e, err)
		}
		e.Blocks++
		e.Rows += int64(b.Rows)
	}
	if err := n.s.cat.addRows(*st.insert, e.Rows); err != nil {
		return n.fail(e, err)
	}
	e.Acked = true
	n.s.log.add(*e)
	proto.ServerCodeEndOfStream.Encode(&n.buf)
	return n.flush()
}

// matchColumns checks that a data block has the INSERT's columns.
func matchColumns(res proto.Results, cols []column) error {
	if len(res) != len(cols) {
		return errorf(codeNoSuchColumn, "a data block has %d columns, the INSERT %d", len(res), len(cols))
	}
	for i, r := range res {
		if r.Name != cols[i].Name || string(r.Data.Type()) != cols[i].Type {
			return errorf(codeNoSuchColumn, "a data block's column %d is %s %s, the INSERT's %s %s", i, r.Name, r.Data.Type(), cols[i].Name, cols[i].Type)
		}
	}
	return nil
}

// readData reads one Data packet and decodes its block into res (nil:
// the block must be empty). A Cancel packet is an *exception.
func (n *nativeConn) readData(compressed bool, res *proto.Results) (proto.Block, error) {
	var b proto.Block
	code, err := n.r.UVarInt()
	if err != nil {
		return b, err
	}
	switch proto.ClientCode(code) {
	case proto.ClientCodeData:
	case proto.ClientCodeCancel:
		return b, errorf(codeQueryCancelled, "Query was cancelled")
	default:
		return b, fmt.Errorf("want a Data packet, got %d", code)
	}
	var d proto.ClientData
	if err := d.DecodeAware(n.r, n.rev); err != nil {
		return b, err
	}
	if compressed {
		n.r.EnableCompression()
		defer n.r.DisableCompression()
	}
	var target proto.Result
	if res != nil {
		for _, c := range *res {
			c.Data.Reset()
		}
		target = res.Auto()
	}
	if err := b.DecodeBlock(n.r, n.rev, target); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return b, err
		}
		return b, fmt.Errorf("decode a data block: %w", err)
	}
	return b, nil
}

// blockWriter sends Data packets, compressed when the query asked.
type blockWriter struct {
	n          *nativeConn
	compressed bool
	method     compress.Method
	tmp        *proto.Buffer
	comp       *compress.Writer
}

// maxBlockRows is the rows per block of an answer, ClickHouse's default
// max_block_size.
const maxBlockRows = 65_505

// result sends r: a header block, then its rows in blocks.
func (w *blockWriter) result(r *result) error {
	header, err := r.columns(0, 0)
	if err != nil {
		return err
	}
	if err := w.block(header, 0); err != nil {
		return err
	}
	for from := 0; from < r.rows; from += maxBlockRows {
		to := min(from+maxBlockRows, r.rows)
		in, err := r.columns(from, to)
		if err != nil {
			return err
		}
		if err := w.block(in, to-from); err != nil {
			return err
		}
	}
	return nil
}

func (w *blockWriter) block(in proto.Input, rows int) error {
	buf := &w.n.buf
	proto.ServerCodeData.Encode(buf)
	proto.ClientData{}.EncodeAware(buf, w.n.rev) // the same table-name field as a client's
	b := proto.Block{Columns: len(in), Rows: rows, Info: proto.BlockInfo{BucketNum: -1}}
	if !w.compressed {
		return b.EncodeBlock(buf, w.n.rev, in)
	}
	if w.tmp == nil {
		w.tmp, w.comp = new(proto.Buffer), compress.NewWriter(compress.LevelZero, w.method)
	}
	w.tmp.Reset()
	if err := b.EncodeBlock(w.tmp, w.n.rev, in); err != nil {
		return err
	}
	if err := w.comp.Compress(w.tmp.Buf); err != nil {
		return err
	}
	buf.PutRaw(w.comp.Data)
	return nil
}

// newHeaderColumn is an empty column of type typ for an INSERT's header,
// any type the table has.
func newHeaderColumn(typ string) (proto.ColInput, error) {
	var c proto.ColAuto
	if err := c.Infer(proto.ColumnType(typ)); err != nil {
		return nil, errorf(codeNotImplemented, "the stand-in cannot take columns of type %s", typ)
	}
	return c.Data, nil
}
