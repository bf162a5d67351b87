package cli

import (
	"github.com/spf13/cobra"

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
	cmd.RunE = runE(func(*cobra.Command, []string) error {
		sysinfo.WriteVersion(env.Stdout, all)
		return nil
	})
	return cmd
}
