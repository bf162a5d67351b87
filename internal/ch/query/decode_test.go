package query

import (
	"fmt"
	"math"
	"testing"

	"github.com/ClickHouse/ch-go/proto"
)

// usersBlock builds in memory the block `SELECT id, name, score FROM users`
// returns: what ch-go hands dbmeter, with no server involved.
func usersBlock(rows int) []proto.ColResult {
	id, name, score := new(proto.ColUInt64), new(proto.ColStr), new(proto.ColFloat64)
	for i := range rows {
		id.Append(uint64(i))
		name.Append(fmt.Sprintf("user%d", i*7919%1000003))
		score.Append(float64(i%1000) / 10)
	}
	return []proto.ColResult{id, name, score}
}

func TestWalkModesAgree(t *testing.T) {
	t.Parallel()
	dt := &proto.ColDateTime{}
	dt.Append(proto.DateTime(1704067200).Time())
	date := proto.ColDate{proto.Date(19723)}
	tests := []struct {
		name      string
		cols      []proto.ColResult
		wantBytes int64
	}{
		{"users 1k", usersBlock(1000), -1},
		{"empty", usersBlock(0), 0},
		{"count() result", []proto.ColResult{&proto.ColUInt64{42}}, 8},
		{"dates", []proto.ColResult{dt, &date}, 6},
		{"auto wraps", []proto.ColResult{&proto.ColAuto{Data: &proto.ColFloat64{1.5, math.Pi}}}, 16},
	}
	for _, tt := range tests {
		rows, cols := walkRows(tt.cols), walkColumns(tt.cols)
		if rows != cols {
			t.Errorf("%s: walkRows = %+v, walkColumns = %+v, want equal", tt.name, rows, cols)
		}
		if tt.wantBytes >= 0 && cols.Bytes != tt.wantBytes {
			t.Errorf("%s: bytes = %d, want %d", tt.name, cols.Bytes, tt.wantBytes)
		}
	}
}

// TestScanColumnsMatchRows checks that column decode of scanned rows folds
// to the same figures as row decode.
func TestScanModesAgree(t *testing.T) {
	t.Parallel()
	for _, d := range []Decode{Row, Column} {
		src := &fakeRows{n: 500}
		st, err := ScanRows(src, src.types(), nil, d)
		if err != nil {
			t.Fatalf("ScanRows(%s): %v", d, err)
		}
		want := QueryStats{Rows: 500, Bytes: 500*16 + src.nameBytes()}
		if st.Rows != want.Rows || st.Bytes != want.Bytes {
			t.Errorf("ScanRows(%s) = rows %d bytes %d, want rows %d bytes %d", d, st.Rows, st.Bytes, want.Rows, want.Bytes)
		}
		if st.DecodeNs <= 0 {
			t.Errorf("ScanRows(%s) decode time %d, want > 0", d, st.DecodeNs)
		}
	}
}

// BenchmarkTraverse is the row-versus-column pair over the same decoded
// blocks (seed 002): 10 blocks of 1,000 users rows, as select10k returns.
// Compare the two with benchstat; ns/op is per 10,000 rows.
func BenchmarkTraverse(b *testing.B) {
	blocks := make([][]proto.ColResult, 10)
	for i := range blocks {
		blocks[i] = usersBlock(1000)
	}
	for _, d := range []Decode{Row, Column} {
		b.Run(string(d), func(b *testing.B) {
			b.ReportAllocs()
			var t Tally
			for b.Loop() {
				for _, blk := range blocks {
					x := WalkBlock(d, blk)
					t.Sum += x.Sum
				}
			}
			Keep(t)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/10000, "ns/row")
		})
	}
}
