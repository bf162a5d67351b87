package cli

import (
	"fmt"
	"maps"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbmeter/dbmeter/internal/calibrate"
	"github.com/dbmeter/dbmeter/internal/usage"
)

func newCalibrateCmd(env Env) *cobra.Command {
	lim := calibrate.DefaultLimits()
	var out outputFlags
	cmd := &cobra.Command{
		Use:   "calibrate",
		Short: "Check that dbmeter's numbers can be trusted on this machine",
		Long:  help("calibrate"),
		Args:  noArgs,
	}
	f := cmd.Flags()
	declare(f,
		opt{"Duration", "duration", "", &lim.Duration, "length of each measured check"},
		opt{"Rate", "rate", "", &lim.Rate, "open-loop rate to hold, per second"},
		opt{"Overhead", "max-overhead", "", &lim.Overhead, "most the runner may cost per operation"},
		opt{"Lag", "max-lag", "", &lim.Lag, "most the schedule lag p99 may be"},
		opt{"CPU", "max-cpu", "", &lim.CPU, "most CPU (in cores) dbmeter may use to hold --rate"},
		opt{"FloorRatio", "max-floor-ratio", "", &lim.FloorRatio, "most CPU dbmeter may use to hold 1,000/s, as a multiple of a bare precise-sleep loop's"})
	out.bind(f)
	cmd.RunE = runE(func(cmd *cobra.Command, _ []string) error {
		spelled := calibrateSpelling(cmd.Flags())
		if err := lim.Validate(); err != nil {
			return usage.Spell(usage.Wrap(err), spelled)
		}
		s, err := newSession(env, "null", out, "")
		if err != nil {
			return err
		}
		runs, failed, err := calibrate.All(cmd.Context(), lim, func(c calibrate.Check) { fmt.Fprintln(env.Stdout, usage.SpellText(c.String(), spelled)) })
		if err != nil {
			s.Abort()
			return err
		}
		params := flagParams(cmd.Flags())
		for _, r := range runs {
			r.Params = maps.Clone(params)
			s.Add(r)
		}
		s.SetQuiet() // the checks above are the report
		if err := s.Finish(cmd.Context()); err != nil {
			return err
		}
		if failed > 0 {
			return runError{fmt.Errorf("%d calibration checks failed: each FAIL above says which of this machine's numbers to doubt and what to do", failed)}
		}
		return nil
	})
	return cmd
}

// calibrateAdvice names the flags of the run commands (null, kv, ch) that
// calibrate's advice names for the user's own runs, and calibrate lacks.
func calibrateAdvice() map[string]string {
	return map[string]string{"Workers": runFields()["Workers"], "Find": searchFieldFlags()["Find"]}
}

// calibrateSpelling spells calibrate's messages: its limits as its own
// flags, and its advice's settings as the run commands'.
func calibrateSpelling(fs *pflag.FlagSet) map[string]string {
	spelled := spelling(fs, fieldFlags(fs))
	for field, name := range calibrateAdvice() {
		spelled[field] = "--" + name
	}
	return spelled
}
