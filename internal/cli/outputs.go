package cli

import (
	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/sink"
)

// outputFlagNames are the flags of any command that name a file dbmeter
// writes. Every command's files are checked before it starts (checkOutputs,
// from the root's pre-run hook), so that a run of ten minutes is not lost
// to a path it could never write; a test holds every flag whose help says
// "to this file" to this list.
func outputFlagNames() []string {
	return []string{"json", "html", "md", "csv", "hdr-log", "output", "cpuprofile", "tls-cert"}
}

// checkOutputs refuses, as a usage error, the first output file of cmd that
// cannot be written: its directory missing or not writable, or the path a
// directory. It creates nothing that was not there ("-" is stdout).
func checkOutputs(cmd *cobra.Command) error {
	for _, name := range outputFlagNames() {
		f := cmd.Flags().Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		if err := sink.Writable(f.Value.String()); err != nil {
			return usagef("cannot write --%s %s: %v", name, f.Value.String(), err)
		}
	}
	return nil
}
