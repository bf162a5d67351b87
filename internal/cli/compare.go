package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/report"
)

func newCompareCmd(env Env) *cobra.Command {
	var format, out string
	var vary []string
	cmd := &cobra.Command{
		Use:   "compare BASE.json NEW.json",
		Short: "Compare two result documents figure by figure, with significance",
		Long: `compare matches the runs of two result documents by family, target,
workload and the params that define them (not --json, --seed, --repeat,
--progress, --duration and the like) and prints, per figure, the base and new
medians, the change, and whether it is significant: a Mann-Whitney U test
over the repetitions (--repeat), at alpha 0.05, as benchstat does. With too
few repetitions to ever show a difference it says "~ (n too small)": it
needs at least 4 repetitions on each side (--repeat 4).

--vary KNOB compares two settings of a knob: runs whose params differ only
in the named knobs (and the --param list that set them) match, and only the
runs that have the knob (the engines it applies to) are compared. With
nothing compared, compare exits 1.

--format gobench writes the documents in Go's benchmark format instead, for
benchstat (golang.org/x/perf/cmd/benchstat); it also takes a single file.`,
		Example: `  dbmeter null --repeat 6 --json base.json
  dbmeter null --repeat 6 --json new.json
  dbmeter compare base.json new.json

  dbmeter kv --engines bbolt --repeat 6 --json base.json
  dbmeter kv --engines bbolt --repeat 6 --param bbolt.freelist_type=map --json map.json
  dbmeter compare --vary bbolt.freelist_type base.json map.json

  dbmeter compare --format gobench base.json > base.txt
  dbmeter compare --format gobench new.json > new.txt
  benchstat base.txt new.txt`,
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "text", "output format: text or gobench")
	f.StringVarP(&out, "output", "o", "-", "write to this file instead of stdout")
	f.StringArrayVar(&vary, "vary", nil, "a knob (a run param such as bbolt.freelist_type) whose settings to compare, repeatable")
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		switch {
		case format != "text" && format != "gobench":
			return usagef("unknown --format %q: want text or gobench", format)
		case format == "text" && len(args) != 2:
			return usagef("compare needs two result documents, BASE.json and NEW.json; got %d", len(args))
		case format == "gobench" && len(args) == 0:
			return usagef("compare --format gobench needs at least one result document")
		}
		return nil
	}
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) error {
		srcs, err := report.ReadSources(args...)
		if err != nil {
			return err
		}
		return writeTo(env, "output", out, func(w io.Writer) error {
			if format == "gobench" {
				return report.GoBench(w, srcs)
			}
			return report.Compare(w, srcs[0], srcs[1], vary...)
		})
	})
	return cmd
}
