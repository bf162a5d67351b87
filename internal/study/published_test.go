package study

import (
	"strconv"
	"strings"
	"testing"
)

// articleTable is one published table as its source prints it, copied
// from the source and not from the study file. Text holds the column
// labels on its first line, then one line per row: its label, then its
// values as printed, "null" for a cell the source leaves empty. Cells
// are split at "|" in a table that has one (labels with spaces), else at
// spaces.
type articleTable struct {
	unit string
	text string
}

// TestPublishedTables compares every built-in study's published tables
// with the copies below, cell by cell and in order: the unit, the column
// and row labels a figure is attached to, and its value. A mistyped,
// dropped, misplaced or reordered number in a study file fails.
func TestPublishedTables(t *testing.T) {
	for _, tc := range []struct {
		id      string
		article map[string]articleTable
	}{
		{"s1", s1Article},
		{"s2", s2Article},
		{"s3", s3Article},
		{"s4", s4Article},
		{"s5", s5Article},
	} {
		t.Run(tc.id, func(t *testing.T) {
			s, err := Load(tc.id)
			if err != nil {
				t.Fatal(err)
			}
			own := 0
			for i := range s.Tables {
				tb := &s.Tables[i]
				want, ok := tc.article[tb.ID]
				if ok {
					own++
				} else {
					want, ok = derivedTable(tc.article, tb.ID)
				}
				if !ok {
					t.Errorf("table %s is not one of the source's", tb.ID)
					continue
				}
				checkPublished(t, tb, want)
			}
			if own != len(tc.article) {
				t.Errorf("%s has %d of the source's tables, the source %d", tc.id, own, len(tc.article))
			}
		})
	}
}

// checkPublished reports every difference between a study file's table
// and the source's copy of it.
func checkPublished(t *testing.T, tb *Table, want articleTable) {
	t.Helper()
	if tb.Unit != want.unit {
		t.Errorf("%s unit %q, the source's %q", tb.ID, tb.Unit, want.unit)
	}
	lines := strings.Split(want.text, "\n")
	cells := strings.Fields
	if strings.Contains(want.text, "|") {
		cells = pipeCells
	}
	header := cells(lines[0])
	if got := strings.Join(tb.Header, " | "); got != strings.Join(header, " | ") {
		t.Errorf("%s header %q, the source's %q", tb.ID, got, strings.Join(header, " | "))
	}
	rows := tb.PublishedRows()
	if len(rows) != len(lines)-1 {
		t.Errorf("%s: %d rows, the source %d", tb.ID, len(rows), len(lines)-1)
		return
	}
	for i, line := range lines[1:] {
		words := cells(line)
		label, values := words[0], words[1:]
		if rows[i].Label != label {
			t.Errorf("%s row %d is %q, the source's %q", tb.ID, i, rows[i].Label, label)
		}
		if len(rows[i].Values) != len(values) {
			t.Errorf("%s %s: %d values, the source %d", tb.ID, label, len(rows[i].Values), len(values))
			continue
		}
		for j, w := range values {
			if !sameFigure(rows[i].Values[j], w) {
				t.Errorf("%s %s %s = %s, the source prints %s", tb.ID, label, column(header, j), show(rows[i].Values[j]), w)
			}
		}
	}
}

// sameFigure says whether a study file's value is the printed one.
func sameFigure(v *float64, printed string) bool {
	if printed == "null" {
		return v == nil
	}
	want, err := strconv.ParseFloat(printed, 64)
	return err == nil && v != nil && *v == want
}

func pipeCells(line string) []string {
	parts := strings.Split(line, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func column(header []string, j int) string {
	if j < len(header) {
		return header[j]
	}
	return strconv.Itoa(j)
}

// s1Article is seed 000's figures: the text's rates per client (单线程下,
// clickhouse-go的写入速率在6w/s; the column API 平均6.5w/s; ch-go
// 平均6.7w-6.8w/s, its low end; database/sql 5.5w/s; gorm 4w/s) and its
// summary table (6.5w/s column, 6.7w/s ch-go, 5.5w/s database/sql, 6w/s
// sqlx, 4w/s gorm), in thousands of rows per second (1w = 10k). The
// steadiness is charts only: no figure.
var s1Article = map[string]articleTable{
	"modern-rate": {"k rows/s", `insert
clickhouse-go row API | 60
clickhouse-go column API | 65
ch-go | 67
database/sql on v2 (published on v1) | 55
sqlx on v2 (published on v1) | 60
gorm | 40`},
	"legacy-rate": {"k rows/s", `insert
database/sql | 55
sqlx | 60`},
	"modern-steadiness": {"%", `insert
clickhouse-go row API | null
clickhouse-go column API | null
ch-go | null
gorm | null`},
	// 消耗时间多的地方在Exec的方法上: where database/sql's time goes, no figure.
	"legacy-build": {"ms", `insert
database/sql | null`},
	"legacy-send": {"ms", `insert
database/sql | null`},
}

// s2Article is seed 001's figures: its table of each optimisation's P99
// (连接建立 ~9ms → ~0.3ms, SQL 解析 ~4ms → ~0.1ms, 列式数据解码 ~6ms →
// ~1.1ms), 10k 行解码耗时从 8.2ms → 1.9ms, P99 12.3–14.7ms at 100 QPS with
// the three together, and its 5,000 QPS table (禁用复用 428, 固定池 112,
// 自适应 86 ms).
var s2Article = map[string]articleTable{
	"pooling": {"ms", `clickhouse-go v2 database/sql
no reuse (max idle 0) | 9
pool (max idle 50) | 0.3`},
	"prepared": {"ms", `clickhouse-go v2 database/sql
inlined | 4
prepared | 0.1`},
	"decode-p99": {"ms", `clickhouse-go v2 database/sql | ch-go
row by row | 6 | null
column by column | 1.1 | null`},
	"decode-10k": {"ms", `clickhouse-go v2 database/sql | ch-go
row by row | 8.2 | null
column by column | 1.9 | null`},
	"together": {"ms", `low end | high end
all three | 12.3 | 14.7
all off | null | null`},
	"qps5000": {"ms", `Go net/http
no connection reuse | 428
fixed pool | 112
adaptive pool | 86`},
	"qps5000-reuse": {"%", `Go net/http
no connection reuse | 0
fixed pool | 89
adaptive pool | 94`},
	"qps5000-setup": {"%", `Go net/http
no connection reuse | 67
fixed pool | 12
adaptive pool | 8`},
}

// s3Article is seed 002's figures: its author's result-insert.txt and
// result-select.txt (mean ± sd ms, as transcribed in
// seeds/published/002-orzclick-bench.md, split here into a mean and an sd
// table), and the text's "time php insert-orzclick.php N 100" real times,
// 0m3.894s at 8170 rows and 0m0.422s at 8171, here in ms.
var s3Article = map[string]articleTable{
	"insert-mean": {"ms", `275 500 1000 2000 5000 10000
seasclick 443.7 609.8 1120 2611 1252 11568
seasclick-block 47.5 58.5 107.7 251.4 751.5 2352
orzclick 147.5 173.3 283.3 514.7 1130 2533
orzclick-columnar 134.3 147.1 174.4 277.8 560.8 873.4
orzclick-indexed 139.0 158.3 208.2 392.2 852.0 1640`},
	"insert-columnar": {"ms", `275 500 1000 2000 5000 10000
orzclick-columnar 134.3 147.1 174.4 277.8 560.8 873.4
seasclick-block 47.5 58.5 107.7 251.4 751.5 2352`},
	"insert-sd": {"ms", `275 500 1000 2000 5000 10000
seasclick 42.1 35.8 115 448 71 791
seasclick-block 12.7 5.6 12.0 9.7 12.4 44
orzclick 3.1 4.7 10.2 32.0 81 118
orzclick-columnar 2.6 2.5 5.1 5.3 14.0 49.9
orzclick-indexed 3.0 3.8 5.6 25.9 51.4 12`},
	"select-mean": {"ms", `10 100 200 500 1000 1500
mysql 836.4 958.5 1088 1513 2179 2820
orzclick 1106 1144 1158 1200 1429 1705
seasclick 1119 1153 1177 1402 1839 2266`},
	"select-sd": {"ms", `10 100 200 500 1000 1500
mysql 8.2 1.9 1 14 26 32
orzclick 25 21 27 31 18 19
seasclick 30 34 27 20 25 17`},
	"nodelay": {"ms", `8170 | 8171
Nagle on | 3894 | 422
TCP_NODELAY | null | null`},
}

// s4Article is seed 003's TPS, printed in its text in thousands: 19.8K
// read+write (RDS and Aurora "4.4K–4.6K" together, neither alone: no
// figure of either), 84.8K read-only against RDS's 9.4K, and 36.5K
// CPU-bound (RDS's own figure not printed, only "12.3% higher").
var s4Article = map[string]articleTable{
	"test1-rw": {"k tps", `ClickHouse Postgres | RDS 16k IOPS | Aurora IO Optimized
tpcb-like | 19.8 | null | null`},
	"test2-ro": {"k tps", `ClickHouse Postgres | RDS 16k IOPS
select-only | 84.8 | 9.4`},
	"test3-cpu": {"k tps", `ClickHouse Postgres | RDS gp3
select-only | 36.5 | null`},
}
