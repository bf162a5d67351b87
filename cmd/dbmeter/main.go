// Command dbmeter benchmarks database clients and storage engines side by
// side. See the README for usage.
package main

import (
	"context"
	"os"

	"github.com/dbmeter/dbmeter/internal/cli"
	"github.com/dbmeter/dbmeter/internal/interrupt"
)

func main() {
	ctx, stop := interrupt.Notify(context.Background(), os.Stderr)
	code := cli.Main(ctx, cli.Env{
		Args:   os.Args[1:],
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Getenv: os.Getenv,
	})
	stop()
	os.Exit(code)
}
