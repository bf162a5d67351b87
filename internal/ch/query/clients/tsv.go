package clients

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ClickHouse/ch-go/proto"

	"github.com/dbmeter/dbmeter/internal/ch/query"
)

// kind is how a TSV field of a ClickHouse type is parsed.
type kind uint8

const (
	kRaw kind = iota // kept as text
	kUint
	kInt
	kFloat
	kString
	kDate
	kDateTime
)

func kindOf(typ string) kind {
	switch {
	case strings.HasPrefix(typ, "UInt"):
		return kUint
	case strings.HasPrefix(typ, "Int"):
		return kInt
	case strings.HasPrefix(typ, "Float"):
		return kFloat
	case typ == "String":
		return kString
	case typ == "Date":
		return kDate
	case typ == "DateTime" || strings.HasPrefix(typ, "DateTime("):
		return kDateTime
	}
	return kRaw
}

// decodeTSV parses a TabSeparatedWithNamesAndTypes body. Row mode parses
// each field and folds it at once; column mode parses each field into its
// column and walks the columns at the end (rows arrive row by row in TSV,
// so column mode pays for a copy).
func decodeTSV(body []byte, d query.Decode) (query.QueryStats, error) {
	var st query.QueryStats
	if len(body) == 0 {
		return st, nil
	}
	_, rest, _ := bytes.Cut(body, []byte{'\n'})      // names
	types, rest, ok := bytes.Cut(rest, []byte{'\n'}) // types
	if !ok {
		return st, fmt.Errorf("decode TSV: no types line")
	}
	var kinds []kind
	for _, t := range bytes.Split(types, []byte{'\t'}) {
		kinds = append(kinds, kindOf(string(t)))
	}
	var cols []proto.ColResult
	if d == query.Column {
		cols = make([]proto.ColResult, len(kinds))
		for i, k := range kinds {
			cols[i] = columnOf(k)
		}
	}
	var t query.Tally
	var scratch []byte
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		for i, k := range kinds {
			var field []byte
			field, line, _ = bytes.Cut(line, []byte{'\t'})
			if k == kString || k == kRaw {
				scratch = unescape(scratch[:0], field)
				field = scratch
			}
			if cols != nil {
				if err := appendField(cols[i], k, field); err != nil {
					return st, fmt.Errorf("decode TSV row %d column %d: %w", st.Rows, i, err)
				}
				continue
			}
			v, size, err := parseField(k, field)
			if err != nil {
				return st, fmt.Errorf("decode TSV row %d column %d: %w", st.Rows, i, err)
			}
			t.Sum += v
			t.Bytes += size
		}
		st.Rows++
	}
	if cols != nil {
		t = query.WalkBlock(query.Column, cols)
	}
	st.Bytes = t.Bytes
	query.Keep(t)
	return st, nil
}

func columnOf(k kind) proto.ColResult {
	switch k {
	case kUint:
		return new(proto.ColUInt64)
	case kInt:
		return new(proto.ColInt64)
	case kFloat:
		return new(proto.ColFloat64)
	case kDate:
		return new(proto.ColDate)
	case kDateTime:
		return new(proto.ColDateTime)
	}
	return new(proto.ColStr)
}

// parseField folds one field into a number and its size.
func parseField(k kind, f []byte) (uint64, int64, error) {
	switch k {
	case kUint:
		v, err := strconv.ParseUint(string(f), 10, 64)
		return v, 8, err
	case kInt:
		v, err := strconv.ParseInt(string(f), 10, 64)
		return uint64(v), 8, err
	case kFloat:
		v, err := strconv.ParseFloat(string(f), 64)
		return math.Float64bits(v), 8, err
	case kDate:
		v, err := parseDate(f)
		return uint64(v), 2, err
	case kDateTime:
		v, err := parseDateTime(f)
		return uint64(v), 4, err
	}
	return uint64(len(f)), int64(len(f)), nil
}

func appendField(c proto.ColResult, k kind, f []byte) error {
	switch c := c.(type) {
	case *proto.ColUInt64:
		v, err := strconv.ParseUint(string(f), 10, 64)
		c.Append(v)
		return err
	case *proto.ColInt64:
		v, err := strconv.ParseInt(string(f), 10, 64)
		c.Append(v)
		return err
	case *proto.ColFloat64:
		v, err := strconv.ParseFloat(string(f), 64)
		c.Append(v)
		return err
	case *proto.ColDate:
		v, err := parseDate(f)
		*c = append(*c, proto.Date(v))
		return err
	case *proto.ColDateTime:
		v, err := parseDateTime(f)
		c.Data = append(c.Data, proto.DateTime(v))
		return err
	case *proto.ColStr:
		c.AppendBytes(f)
	}
	return nil
}

// parseDate reads YYYY-MM-DD as days since 1970-01-01.
func parseDate(f []byte) (int64, error) {
	if len(f) != 10 || f[4] != '-' || f[7] != '-' {
		return 0, fmt.Errorf("bad Date %q", f)
	}
	y, m, d := digits(f[0:4]), digits(f[5:7]), digits(f[8:10])
	if y < 0 || m < 1 || m > 12 || d < 1 || d > 31 {
		return 0, fmt.Errorf("bad Date %q", f)
	}
	return daysFromCivil(y, m, d), nil
}

// parseDateTime reads YYYY-MM-DD hh:mm:ss as seconds since the epoch in
// the server's zone (the value is only folded, never shown).
func parseDateTime(f []byte) (int64, error) {
	if len(f) != 19 || f[10] != ' ' || f[13] != ':' || f[16] != ':' {
		return 0, fmt.Errorf("bad DateTime %q", f)
	}
	days, err := parseDate(f[:10])
	h, mi, s := digits(f[11:13]), digits(f[14:16]), digits(f[17:19])
	if err != nil || h < 0 || mi < 0 || s < 0 {
		return 0, fmt.Errorf("bad DateTime %q", f)
	}
	return days*86400 + h*3600 + mi*60 + s, nil
}

func digits(b []byte) int64 {
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// daysFromCivil is Howard Hinnant's days_from_civil.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// unescape undoes TSV escaping (\t \n \\ \' and friends) into dst.
func unescape(dst, f []byte) []byte {
	if bytes.IndexByte(f, '\\') < 0 {
		return append(dst, f...)
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '\\' || i+1 == len(f) {
			dst = append(dst, c)
			continue
		}
		i++
		switch f[i] {
		case 't':
			dst = append(dst, '\t')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case '0':
			dst = append(dst, 0)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		default:
			dst = append(dst, f[i])
		}
	}
	return dst
}
