package query

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/ClickHouse/ch-go/proto"
)

// rowSource is what database/sql's *sql.Rows and clickhouse-go v2's
// driver.Rows have in common: row-at-a-time access and nothing else.
type rowSource interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanRows drains rows, scanning every row into destinations of the
// column's own Go type. Row mode folds each scanned row at once; column
// mode appends each value to a column slice and walks the columns at the
// end (these APIs have no columnar access, so column mode costs them a
// copy: measured, not assumed away).
//
// Decode time covers Scan, the fold and the appends; rows.Next is left out
// because it is where these clients wait for the next block. Each row costs
// two clock reads, counted in decode time (tens of ns, see dbmeter
// calibrate).
func ScanRows(rows rowSource, types []reflect.Type, dbTypes []string, d Decode) (QueryStats, error) {
	dests := make([]any, len(types))
	// A time.Time is as wide as the ClickHouse type it came from, as the
	// ch-go walk counts it: Date 2 bytes, Date32 and DateTime 4,
	// DateTime64 8.
	timeBytes := make([]int64, len(types))
	for i, t := range types {
		dests[i] = reflect.New(t).Interface()
		timeBytes[i] = 4
		if i < len(dbTypes) {
			timeBytes[i] = timeSize(dbTypes[i])
		}
	}
	var cols []proto.ColResult
	if d == Column {
		cols = make([]proto.ColResult, len(dests))
		for i, dst := range dests {
			cols[i] = columnFor(dst, timeBytes[i])
		}
	}
	var st QueryStats
	var t Tally
	var decode time.Duration
	for rows.Next() {
		start := time.Now()
		if err := rows.Scan(dests...); err != nil {
			return st, fmt.Errorf("scan row %d: %w", st.Rows, err)
		}
		if d == Column {
			for i, dst := range dests {
				appendDest(cols[i], dst)
			}
		} else {
			for i, dst := range dests {
				v, size := foldDest(dst, timeBytes[i])
				t.Sum += v
				t.Bytes += size
			}
		}
		decode += time.Since(start)
		st.Rows++
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	if d == Column {
		start := time.Now()
		t = walkColumns(cols)
		decode += time.Since(start)
	}
	st.Bytes, st.DecodeNs = t.Bytes, int64(decode)
	Keep(t)
	return st, nil
}

// Keep keeps a Tally alive past the optimiser.
func Keep(t Tally) {
	if t.Sum == 1<<64-1 && t.Bytes == -1 {
		panic("unreachable")
	}
}

// timeSize is the bytes of a value of a ClickHouse date or time type.
func timeSize(dbType string) int64 {
	t := strings.TrimPrefix(strings.TrimPrefix(dbType, "Nullable("), "LowCardinality(")
	switch {
	case strings.HasPrefix(t, "DateTime64"):
		return 8
	case strings.HasPrefix(t, "Date32"), strings.HasPrefix(t, "DateTime"):
		return 4
	case strings.HasPrefix(t, "Date"):
		return 2
	}
	return 4
}

func foldDest(d any, timeBytes int64) (uint64, int64) {
	switch v := d.(type) {
	case *uint64:
		return *v, 8
	case *int64:
		return uint64(*v), 8
	case *float64:
		return math.Float64bits(*v), 8
	case *string:
		return uint64(len(*v)), int64(len(*v))
	case *time.Time:
		return uint64(v.Unix()), timeBytes
	case *uint32:
		return uint64(*v), 4
	case *int32:
		return uint64(*v), 4
	case *float32:
		return uint64(math.Float32bits(*v)), 4
	case *uint16:
		return uint64(*v), 2
	case *int16:
		return uint64(*v), 2
	case *uint8:
		return uint64(*v), 1
	case *int8:
		return uint64(*v), 1
	}
	return 0, 0
}

// columnFor returns the proto column a destination's values go to; types
// without a column of their own are kept as their printed form.
func columnFor(d any, timeBytes int64) proto.ColResult {
	switch d.(type) {
	case *time.Time:
		switch timeBytes {
		case 2:
			return new(proto.ColDate)
		case 8:
			return new(proto.ColDateTime64)
		}
		return new(proto.ColDateTime)
	case *uint64:
		return new(proto.ColUInt64)
	case *int64:
		return new(proto.ColInt64)
	case *float64:
		return new(proto.ColFloat64)
	case *uint32:
		return new(proto.ColUInt32)
	case *int32:
		return new(proto.ColInt32)
	case *float32:
		return new(proto.ColFloat32)
	case *uint16:
		return new(proto.ColUInt16)
	case *int16:
		return new(proto.ColInt16)
	case *uint8:
		return new(proto.ColUInt8)
	case *int8:
		return new(proto.ColInt8)
	}
	return new(proto.ColStr)
}

func appendDest(c proto.ColResult, d any) {
	switch c := c.(type) {
	case *proto.ColUInt64:
		c.Append(*d.(*uint64))
	case *proto.ColInt64:
		c.Append(*d.(*int64))
	case *proto.ColFloat64:
		c.Append(*d.(*float64))
	case *proto.ColDateTime:
		c.Append(*d.(*time.Time))
	case *proto.ColDate:
		c.Append(*d.(*time.Time))
	case *proto.ColDateTime64:
		c.Append(*d.(*time.Time))
	case *proto.ColUInt32:
		c.Append(*d.(*uint32))
	case *proto.ColInt32:
		c.Append(*d.(*int32))
	case *proto.ColFloat32:
		c.Append(*d.(*float32))
	case *proto.ColUInt16:
		c.Append(*d.(*uint16))
	case *proto.ColInt16:
		c.Append(*d.(*int16))
	case *proto.ColUInt8:
		c.Append(*d.(*uint8))
	case *proto.ColInt8:
		c.Append(*d.(*int8))
	case *proto.ColStr:
		if s, ok := d.(*string); ok {
			c.Append(*s)
			return
		}
		c.Append(fmt.Sprint(reflect.ValueOf(d).Elem().Interface()))
	}
}
