package insert

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ClickHouse/ch-go/proto"

	"github.com/dbmeter/dbmeter/internal/ch"
)

// Dump formats for the ceiling script.
const (
	DumpNative = "Native"
	DumpTSV    = "TSV"
	// DumpWorkerRows is the rows file external workers get (the ring's
	// blocks they cycle through, not the run's sequence), for
	// scripts/seasclick-bare.sh.
	DumpWorkerRows = "worker-rows"
)

// nativeRevision is the revision a Native dump is encoded with: before
// custom serialization (54454), so that any server's Native reader takes it
// (ch-go's README uses 54451 for dumps).
const nativeRevision = 54451

// Dump writes the rows a run of rows rows would insert (block k is
// ring[k % len(ring)], the last one cut short) in format, for
// `clickhouse-client --query 'INSERT INTO … FORMAT <format>'`.
func Dump(w io.Writer, format string, ring []*ch.Block, batch int, rows int64) error {
	if format == DumpWorkerRows {
		return ch.EncodeWorkerRows(w, ring[:externalRing(len(ring), batch)])
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var enc func(b *ch.Block) error
	switch format {
	case DumpNative:
		var in proto.Input
		var buf proto.Buffer
		enc = func(b *ch.Block) error {
			if in == nil {
				var err error
				if in, err = newCHGoInput(b); err != nil {
					return err
				}
			}
			if err := fillCHGo(b, in); err != nil {
				return err
			}
			buf.Reset()
			if err := (proto.Block{Columns: len(in), Rows: b.Rows}).EncodeRawBlock(&buf, nativeRevision, in); err != nil {
				return err
			}
			_, err := bw.Write(buf.Buf)
			return err
		}
	case DumpTSV:
		enc = func(b *ch.Block) error { return writeTSV(bw, b) }
	default:
		return checkDumpFormat(format)
	}
	for k := 0; rows > 0; k++ {
		b := ring[k%len(ring)]
		n := min(int64(batch), rows)
		if n < int64(b.Rows) {
			b = b.Head(int(n))
		}
		if err := enc(b); err != nil {
			return fmt.Errorf("dump block %d: %w", k, err)
		}
		rows -= n
	}
	return bw.Flush()
}

// checkDumpFormat refuses a format Dump does not write.
func checkDumpFormat(format string) error {
	if format != DumpNative && format != DumpTSV && format != DumpWorkerRows {
		return fmt.Errorf("dump format %q: want %s, %s or %s", format, DumpNative, DumpTSV, DumpWorkerRows)
	}
	return nil
}

var tsvEscaper = strings.NewReplacer("\\", "\\\\", "\t", "\\t", "\n", "\\n")

func writeTSV(w *bufio.Writer, b *ch.Block) error {
	var num []byte
	for r := range b.Rows {
		for i, c := range b.Columns {
			if i > 0 {
				w.WriteByte('\t')
			}
			switch d := c.Data.(type) {
			case []string:
				tsvEscaper.WriteString(w, d[r])
			default:
				w.Write(appendNumber(num[:0], c.Data, r))
			}
		}
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// appendNumber appends value r of a numeric column's data as text.
func appendNumber(dst []byte, data any, r int) []byte {
	switch d := data.(type) {
	case []uint8:
		return strconv.AppendUint(dst, uint64(d[r]), 10)
	case []uint16:
		return strconv.AppendUint(dst, uint64(d[r]), 10)
	case []uint32:
		return strconv.AppendUint(dst, uint64(d[r]), 10)
	case []uint64:
		return strconv.AppendUint(dst, d[r], 10)
	case []int8:
		return strconv.AppendInt(dst, int64(d[r]), 10)
	case []int16:
		return strconv.AppendInt(dst, int64(d[r]), 10)
	case []int32:
		return strconv.AppendInt(dst, int64(d[r]), 10)
	case []int64:
		return strconv.AppendInt(dst, d[r], 10)
	case []float32:
		return strconv.AppendFloat(dst, float64(d[r]), 'g', -1, 32)
	case []float64:
		return strconv.AppendFloat(dst, d[r], 'g', -1, 64)
	}
	return dst
}
