package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/sink"
)

// compareLong is compare's help: what it matches, what it pools, and when
// it calls a change significant.
const compareLong = `compare matches the runs of two result documents by family, target,
workload and the params that define them: not how long they ran (--duration,
--repeat, --seed), not how they were observed (--json, --hdr-log, --progress,
--no-disk-probe and the like), and not the lists that chose what ran
(--engines, --ops, --driver, --clients: runs of the engines both sides
ran are compared, the others listed). Each figure is each side's repetitions
pooled as the tables pool them, with the 95% confidence interval of the
mean of its repetitions (the tables' ±), the change, and whether it is
significant: a Mann-Whitney U test over the repetitions (--repeat), at alpha
0.05, as benchstat does. With too few repetitions to ever show a difference
it says "~ (n too small)": it needs at least 4 repetitions on each side
(--repeat 4). A figure whose interval is wider than itself is "not
comparable", and so is one that is 0 in base.

Several documents per side go either side of --: BASE1.json BASE2.json --
NEW1.json NEW2.json. The runs of one test in a side's documents are its
repetitions together.

--vary KNOB compares two settings of a knob: runs whose params differ only
in the named knobs (and the --param list that set them) match, and only the
runs that have the knob (the engines it applies to) are compared. With
nothing compared, compare exits 1.

--format gobench writes the documents in Go's benchmark format instead, for
benchstat (golang.org/x/perf/cmd/benchstat); it also takes a single file.`

const compareExample = `  dbmeter null --repeat 6 --json base.json
  dbmeter null --repeat 6 --json new.json
  dbmeter compare base.json new.json
  dbmeter compare monday.json tuesday.json -- friday.json

  dbmeter kv --engines bbolt --repeat 6 --json base.json
  dbmeter kv --engines bbolt --repeat 6 --param bbolt.freelist_type=map --json map.json
  dbmeter compare --vary bbolt.freelist_type base.json map.json

  dbmeter compare --format gobench base.json > base.txt
  dbmeter compare --format gobench new.json > new.txt
  benchstat base.txt new.txt`

func newCompareCmd(env Env) *cobra.Command {
	var format, out string
	var vary []string
	cmd := &cobra.Command{
		Use:     "compare BASE.json NEW.json | BASE.json... -- NEW.json...",
		Short:   "Compare result documents (two, or several per side) figure by figure, with significance",
		Long:    compareLong,
		Example: compareExample,
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "text", "output format: text or gobench")
	f.StringVarP(&out, "output", "o", "-", "write to this file instead of stdout")
	f.StringArrayVar(&vary, "vary", nil, "a knob (a run param such as bbolt.freelist_type) whose settings to compare, repeatable")
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		return compareArgs(format, cmd.ArgsLenAtDash(), len(args))
	}
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) error {
		srcs, err := report.ReadSources(args...)
		if err != nil {
			return err
		}
		return sink.Output{Flag: "--output", Path: out, Write: func(w io.Writer) error {
			if format == "gobench" {
				return report.GoBench(w, srcs)
			}
			split := cmd.ArgsLenAtDash()
			if split < 0 {
				split = 1
			}
			err := report.CompareSides(w, srcs[:split], srcs[split:], vary...)
			if errors.Is(err, report.ErrNothingCompared) && len(vary) == 0 {
				err = fmt.Errorf("%w; to compare settings of a knob, name it: --vary KNOB", err)
			}
			return err
		}}.Save(env.Stdout)
	})
	return cmd
}

// compareArgs checks compare's documents: n of them, split at dash (-1
// with no --), for the output format.
func compareArgs(format string, dash, n int) error {
	switch {
	case format != "text" && format != "gobench":
		return usagef("unknown --format %q: want text or gobench", format)
	case format == "gobench" && n == 0:
		return usagef("compare --format gobench needs at least one result document")
	case format == "text" && dash == 0:
		return usagef("compare needs at least one base document before --")
	case format == "text" && dash > 0 && dash == n:
		return usagef("compare needs at least one new document after --")
	case format == "text" && dash < 0 && n != 2:
		return usagef("compare needs two result documents, BASE.json and NEW.json, or several per side: BASE.json... -- NEW.json...; got %d", n)
	}
	return nil
}
