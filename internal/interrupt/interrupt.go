// Package interrupt stops a run on SIGINT or SIGTERM so that it writes what
// it measured: the first signal cancels a context with the signal as its
// cause (Cause), a second exits at once. A run that stopped so exits with
// 128 + the signal's number, and passes the signal on to the processes it
// started (a study's steps).
package interrupt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Cause is the cancellation cause when a signal stops a run.
type Cause struct{ Signal os.Signal }

func (c Cause) Error() string { return "interrupted by " + c.Signal.String() }

// ExitCode follows the shell convention: 128 + the signal number.
func (c Cause) ExitCode() int {
	if n, ok := c.Signal.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// Of is the Cause of ctx's end, if a signal ended it.
func Of(ctx context.Context) (Cause, bool) {
	var c Cause
	ok := errors.As(context.Cause(ctx), &c)
	return c, ok
}

// Passed is the signal a run passes on to a process it started when ctx
// ends: the one that ended it, else SIGINT.
func Passed(ctx context.Context) os.Signal {
	if c, ok := Of(ctx); ok {
		return c.Signal
	}
	return syscall.SIGINT
}

// Notify returns a context cancelled by the first SIGINT or SIGTERM, so
// the run stops and writes its partial result; a second signal exits at
// once. stop releases the signal handler.
func Notify(parent context.Context, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			fmt.Fprintf(stderr, "dbmeter: %s: stopping and writing the partial result (again to quit at once)\n", sig)
			cancel(Cause{sig})
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			fmt.Fprintf(stderr, "dbmeter: %s again: quitting without writing results\n", sig)
			os.Exit(Cause{sig}.ExitCode())
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}
