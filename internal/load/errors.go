package load

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"
)

// Error kinds. Every failed operation is counted under exactly one.
const (
	KindTimeout    = "timeout"
	KindConnection = "connection"
	KindServer     = "server"
	KindOther      = "other"
	// KindUnfinished counts operations still running when the run had to
	// cancel them: after the grace period, or on interrupt.
	KindUnfinished = "unfinished"
	// KindPanic counts operations in which the target panicked or faulted
	// (pebble panics when its WAL cannot be written; badger's mmap faults on
	// a full disk): a failing target shows as errors, not as a crash that
	// loses every other measurement.
	KindPanic = "panic"
)

// kindError carries a kind chosen by the code that saw the error.
type kindError struct {
	kind string
	err  error
}

func (e *kindError) Error() string     { return e.err.Error() }
func (e *kindError) Unwrap() error     { return e.err }
func (e *kindError) ErrorKind() string { return e.kind }

// WithKind marks err as being of the given kind for Classify.
func WithKind(err error, kind string) error {
	if err == nil {
		return nil
	}
	return &kindError{kind: kind, err: err}
}

// Classify sorts an operation error into a kind: the kind an error carries
// (see WithKind) wins; otherwise timeouts, then connection failures, then
// other. A connection failure is anything that says the connection is gone
// or cannot be made: a refused or reset dial, an end of stream, a write cut
// short (clickhouse-go v1's buffered writer on a dying socket), a closed
// socket, and database/sql's driver.ErrBadConn and sql.ErrConnDone (drivers
// report a dead connection through them). Client libraries' own "closed"
// sentinels, which this package cannot know, are marked with WithKind by
// the family that uses the library. The closed loop backs off on
// KindConnection, so a misfiled dead connection spins at full speed.
func Classify(err error) string {
	var k interface{ ErrorKind() string }
	if errors.As(err, &k) {
		return k.ErrorKind()
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return KindTimeout
	}
	var op *net.OpError
	switch {
	case errors.As(err, &op),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, net.ErrClosed),
		errors.Is(err, driver.ErrBadConn),
		errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.EOF),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.ErrShortWrite):
		return KindConnection
	}
	return KindOther
}
