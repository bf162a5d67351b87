package clients

import (
	"testing"

	"github.com/dbmeter/dbmeter/internal/ch/query"
)

func TestDecodeTSV(t *testing.T) {
	t.Parallel()
	body := "id\tname\tscore\td\tts\n" +
		"UInt64\tString\tFloat64\tDate\tDateTime\n" +
		"1\ta\\tb\t0.5\t2024-01-01\t2024-01-01 00:00:01\n" +
		"2\tc\\\\\t1e3\t1970-01-02\t1970-01-01 00:01:00\n"
	for _, d := range []query.Decode{query.Row, query.Column} {
		st, err := decodeTSV([]byte(body), d)
		if err != nil {
			t.Fatalf("decodeTSV(%s): %v", d, err)
		}
		// 2 rows × (8 + 8 + 2 + 4) + "a\tb" (3) + `c\` (2)
		if st.Rows != 2 || st.Bytes != 2*22+3+2 {
			t.Errorf("decodeTSV(%s) = rows %d bytes %d, want rows 2 bytes 49", d, st.Rows, st.Bytes)
		}
	}
	if _, err := decodeTSV([]byte("x\nUInt64\nnope\n"), query.Row); err == nil {
		t.Errorf("decodeTSV accepted a non-number in a UInt64 column")
	}
	if d, _ := parseDate([]byte("2024-01-01")); d != 19723 {
		t.Errorf("parseDate(2024-01-01) = %d, want 19723", d)
	}
}
