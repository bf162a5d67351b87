package cli

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/query/clients"
	"github.com/dbmeter/dbmeter/internal/kv/engine"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/sysinfo"
)

func newVersionCmd(env Env) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print dbmeter's version and the versions of the clients and engines it links",
		Args:  noArgs,
	}
	cmd.Flags().BoolVar(&all, "all", false, "list every linked module, not only clients and engines")
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		sysinfo.WriteVersion(env.Stdout, all, registeredModules())
		vs, err := ch.WorkerVersions(cmd.Context(), env.Getenv)
		if err != nil {
			return err
		}
		fmt.Fprintln(env.Stdout, "external clients (worker processes, docs/worker-protocol.md):")
		for _, v := range vs {
			fmt.Fprintln(env.Stdout, "  "+v.String())
		}
		return nil
	})
	return cmd
}

// registeredModules gathers the Go modules that the registries of engines,
// drivers and client paths in this build name: the ones whose version
// changes the numbers.
func registeredModules() []string {
	return slices.Concat(engine.Modules(), driver.Modules(), insert.Modules(), clients.Modules())
}
