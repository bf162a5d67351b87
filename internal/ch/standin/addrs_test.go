package standin

import (
	"testing"
)

// The addresses a client gives to reach the stand-in, plain and under TLS,
// and its totals in one line.
func TestAddresses(t *testing.T) {
	t.Parallel()
	for _, useTLS := range []bool{false, true} {
		s, err := Listen("127.0.0.1:0", Options{TLS: useTLS})
		if err != nil {
			t.Fatal(err)
		}
		wantDSN, wantURL := "clickhouse://"+s.Addr()+"/default", "http://"+s.Addr()
		if useTLS {
			wantDSN, wantURL = wantDSN+"?secure=true&skip_verify=true", "https://"+s.Addr()
		}
		if s.DSN() != wantDSN || s.HTTPURL() != wantURL {
			t.Errorf("TLS %v: DSN %q, HTTPURL %q; want %q, %q", useTLS, s.DSN(), s.HTTPURL(), wantDSN, wantURL)
		}
		s.Close()
	}
	got := Totals{Queries: 7, Errors: 1, InsertsAcked: 2, RowsAcked: 300, TLSQueries: 0}.String()
	if want := "7 queries (1 refused), 2 INSERTs acknowledged with 300 rows, 0 queries over TLS"; got != want {
		t.Errorf("Totals = %q, want %q", got, want)
	}
}
