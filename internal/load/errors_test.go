package load

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
)

func TestClassify(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"dial refused", refused, KindConnection},
		{"reset", fmt.Errorf("read: %w", syscall.ECONNRESET), KindConnection},
		{"broken pipe", fmt.Errorf("write: %w", syscall.EPIPE), KindConnection},
		{"aborted", fmt.Errorf("read: %w", syscall.ECONNABORTED), KindConnection},
		{"end of stream", fmt.Errorf("read packet: %w", io.EOF), KindConnection},
		{"short read", io.ErrUnexpectedEOF, KindConnection},
		{"short write", fmt.Errorf("send query: %w", io.ErrShortWrite), KindConnection},
		{"closed socket", fmt.Errorf("write: %w", net.ErrClosed), KindConnection},
		// database/sql drivers (clickhouse-go v1 and v2) report a dead
		// connection as driver.ErrBadConn; a transaction on it as ErrConnDone.
		{"driver bad conn", fmt.Errorf("commit: %w", driver.ErrBadConn), KindConnection},
		{"sql conn done", fmt.Errorf("exec: %w", sql.ErrConnDone), KindConnection},
		{"deadline", fmt.Errorf("query: %w", context.DeadlineExceeded), KindTimeout},
		{"marked wins", WithKind(io.EOF, KindServer), KindServer},
		{"marked connection", WithKind(errors.New("client is closed"), KindConnection), KindConnection},
		{"anything else", errors.New("syntax error"), KindOther},
		{"tx done is not a dead connection", sql.ErrTxDone, KindOther},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Classify(tc.err); got != tc.want {
				t.Errorf("Classify(%v) = %q, want %q", tc.err, got, tc.want)
			}
		})
	}
}
