package study

import (
	"strconv"
	"testing"
)

// TestS5TimeIsInverseThroughput checks the article's two tables of each
// machine and mode against each other: every "time" is 1e9 / (throughput ×
// C) ns, C the goroutines (40 on the HDD machine, 20 on the SSD one, 1 for
// setmixed's writer), within the rounding of small integers. A mistyped
// number in either table of a pair fails here, and the s5 file's reading
// of "time" rests on it.
func TestS5TimeIsInverseThroughput(t *testing.T) {
	s, err := Load("s5")
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*Table{}
	for i := range s.Tables {
		tables[s.Tables[i].ID] = &s.Tables[i]
	}
	row := func(tb *Table, label string) []*float64 {
		for _, r := range tb.PublishedRows() {
			if r.Label == label {
				return r.Values
			}
		}
		t.Fatalf("%s has no row %s", tb.ID, label)
		return nil
	}
	for _, m := range []struct {
		machine string
		c       float64
	}{{"hdd", 40}, {"ssd", 20}} {
		for _, mode := range []string{"nofsync", "fsync"} {
			tp, lat := tables[m.machine+"-"+mode+"-throughput"], tables[m.machine+"-"+mode+"-latency"]
			for _, r := range tp.PublishedRows() {
				c := m.c
				if r.Label == "setmixed" {
					c = 1
				}
				times := row(lat, r.Label)
				for j, v := range r.Values {
					if v == nil || *v <= 0 || times[j] == nil || *times[j] <= 0 {
						continue
					}
					got := 1e9 / (*v * c) / *times[j]
					// Times of a few ns are printed as integers: 3 for 3.8.
					hi := 1.03 + 1 / *times[j]
					if got < 0.98 || got > hi {
						t.Errorf("%s %s %s: 1e9/(%s × %.0f) = %.1f ns, the time table prints %s", lat.ID, r.Label, tp.Header[j], show(v), c, 1e9/(*v*c), show(times[j]))
					}
				}
			}
		}
	}
}

func show(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// s5Article is seed 004's eight tables, as its text prints them. The
// article names no unit: throughputs are ops/s ("1000+ op/s" in its text)
// and times ns, the reading TestS5TimeIsInverseThroughput confirms.
var s5Article = map[string]articleTable{
	"hdd-nofsync-throughput": {"ops/s", `badger bbolt bolt leveldb kv buntdb rocksdb btree btree/memory map map/memory
get 474636 428163 467606 338100 17291 3051031 2433409 4966106 5485222 6740588 6555700
setmixed 1619 9469 7842 17220 309 6001 107852 17673 18513 18249 20234
getmixed 333540 127328 241168 344907 12359 359620 1976448 1275432 1519957 2240288 2597800
del 113590 4054 3523 219681 6379 188057 670461 461692 908052 797977 1405268
set 97441 11922 12414 130572 2267 99370 483053 203632 555432 243506 1120192`},
	"hdd-nofsync-latency": {"ns", `badger bbolt bolt leveldb kv buntdb rocksdb btree btree/memory map map/memory
setmixed 617409 105605 127517 58071 3235598 166629 9271 56581 54015 54796 49421
del 220 6165 7096 113 3918 132 37 54 27 31 17
set 256 2096 2013 191 11023 251 51 122 45 102 22
get 52 58 53 73 1445 8 10 5 4 3 3
getmixed 74 196 103 72 2022 69 12 19 16 11 9`},
	"hdd-fsync-throughput": {"ops/s", `badger bbolt bolt leveldb kv buntdb rocksdb btree btree/memory map map/memory
set 1071 67 70 1466 5084 66 1321 66 435274 67 660196
del 1309 81 73 1490 7287 162 1386 164 737082 163 802890
get 401010 276105 323697 510568 5664 1728309 1529519 1973164 2735229 2673796 3229974
setmixed 64 60 31 54 124 66 -1 67 20827 66 23213
getmixed 4201 300291 315338 541976 4938 3082 1961553 2144 890075 2816 1406865`},
	"hdd-fsync-latency": {"ns", `badger bbolt bolt leveldb kv buntdb rocksdb btree btree/memory map map/memory
getmixed 5950 83 79 46 5062 8110 12 11655 28 8874 17
del 19089 307542 337844 16776 3430 154249 18037 151850 33 152854 31
setmixed 15557829 16650544 31712503 18451317 8035914 14950086 -1 14848393 48016 14978524 43080
set 23325 373100 352715 17043 4917 373841 18922 373197 57 372896 37
get 62 90 77 48 4413 14 16 12 9 9 7`},
	"ssd-nofsync-throughput": {"ops/s", `badger bbolt bolt leveldb kv buntdb rocksdb btree btree/memory map map/memory
del 83427 3513 2922 164755 7042 187054 611694 359934 787141 617882 1190171
set 76760 12690 13329 128174 3683 109943 463219 185225 633252 215862 833461
get 454835 405501 435838 404430 17736 3054694 1467525 3555188 4150152 4706103 4747594
setmixed 4566 8324 9083 17123 700 14128 145839 29296 40860 50836 49103
getmixed 395796 72929 234612 264450 13987 282241 1889387 640031 1014941 1548680 1973040`},
	"ssd-nofsync-latency": {"ns", `badger bbolt bolt leveldb kv buntdb rocksdb btree btree/memory map map/memory
set 651 3939 3751 390 13573 454 107 269 78 231 59
get 109 123 114 123 2819 16 34 14 12 10 10
setmixed 218995 120129 110092 58398 1427908 70777 6856 34134 24473 19670 20365
getmixed 126 685 213 189 3574 177 26 78 49 32 25
del 599 14232 17107 303 7100 267 81 138 63 80 42`},
	"ssd-fsync-throughput": {"ops/s", `badger bbolt bolt leveldb kv buntdb rocksdb btree btree/memory map map/memory
set 32124 5413 5623 56968 5123 7052 52700 8065 614477 7841 913575
get 439483 336439 291307 635404 5330 1982160 3246753 3145643 3512469 3852080 3629764
getmixed 129789 222806 252334 609681 4013 86169 3923107 102087 850051 120716 1495438
setmixed 4893 4946 4390 5913 203 5083 6276 6033 32896 7291 63406
del 38229 6990 5732 66996 7637 18200 65530 17635 868734 17363 956571`},
	"ssd-fsync-latency": {"ns", `badger bbolt bolt leveldb kv buntdb rocksdb btree btree/memory map map/memory
set 1556 9236 8890 877 9758 7089 948 6199 81 6376 54
get 113 148 171 78 9379 25 15 15 14 12 13
setmixed 204372 202173 227763 169098 4914902 196697 159317 165745 30399 137151 15771
getmixed 385 224 198 82 12459 580 12 489 58 414 33
del 1307 7152 8721 746 6546 2747 763 2835 57 2879 52`},
}
