package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// signalCause is the cancellation cause when a signal stops a run.
type signalCause struct{ sig os.Signal }

func (s signalCause) Error() string { return "interrupted by " + s.sig.String() }

// exitCode follows the shell convention: 128 + the signal number.
func (s signalCause) exitCode() int {
	if n, ok := s.sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// NotifySignals returns a context cancelled by the first SIGINT or SIGTERM,
// so the run stops and writes its partial result; a second signal exits at
// once. stop releases the signal handler.
func NotifySignals(parent context.Context, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			fmt.Fprintf(stderr, "dbmeter: %s: stopping and writing the partial result (again to quit at once)\n", sig)
			cancel(signalCause{sig})
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			fmt.Fprintf(stderr, "dbmeter: %s again: quitting without writing results\n", sig)
			os.Exit(signalCause{sig}.exitCode())
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}
