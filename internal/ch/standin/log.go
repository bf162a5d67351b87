package standin

import "sync"

// Entry is one query the stand-in received.
type Entry struct {
	Conn     int64  // the connection, numbered from 1
	Protocol string // "native" or "http"
	TLS      bool
	// Client is the client's name as it announced itself (native Hello,
	// HTTP User-Agent); Revision the native protocol revision agreed.
	Client   string
	Revision int
	QueryID  string
	Query    string
	// Settings are the settings sent with the query, with "!" after the
	// name of those sent as important.
	Settings map[string]string
	// Parameters are the server-side query parameters, name → value.
	Parameters map[string]string
	Compressed bool
	// Blocks and Rows are the data blocks and rows an INSERT sent; Acked
	// says the INSERT completed and its rows were counted in the table.
	Blocks int
	Rows   int64
	Acked  bool
	Err    string // the exception answered, if any
}

// Log is what the stand-in received, most recent last. It keeps the last
// maxEntries queries, so a long null-server run does not grow without
// bound, and totals over all of them.
type Log struct {
	mu      sync.Mutex
	entries []Entry
	totals  Totals
}

// Totals sum up every query the stand-in received.
type Totals struct {
	Queries, Errors, InsertsAcked, RowsAcked int64
	TLSQueries                               int64
}

const maxEntries = 100_000

func (l *Log) add(e Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.entries) == maxEntries {
		l.entries = append(l.entries[:0], l.entries[maxEntries/2:]...)
	}
	l.entries = append(l.entries, e)
	l.totals.Queries++
	if e.Err != "" {
		l.totals.Errors++
	}
	if e.Acked {
		l.totals.InsertsAcked++
		l.totals.RowsAcked += e.Rows
	}
	if e.TLS {
		l.totals.TLSQueries++
	}
}

// Entries returns a copy of the entries kept.
func (l *Log) Entries() []Entry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Entry(nil), l.entries...)
}

// Totals returns the totals so far.
func (l *Log) Totals() Totals {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.totals
}
