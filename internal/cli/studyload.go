package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dbmeter/dbmeter/internal/study"
)

// loadStudy reads a study and parses its steps' command lines, printing
// each mistake of a file on a line of its own before the one-line error.
func loadStudy(env Env, idOrFile string) (*study.Study, error) {
	s, err := study.Load(idOrFile)
	var es study.Errors
	if isErrs := errors.As(err, &es); s != nil && (isErrs || err == nil) {
		// One pass: the command lines' mistakes beside the file's.
		es = es.With(study.CheckSteps(s, studyFlags(), func(args []string) error { return parseStep(env, args) }))
	}
	if len(es) > 0 {
		for _, e := range es {
			fmt.Fprintln(env.Stderr, "dbmeter: "+e.Error())
		}
		return nil, studyMistakes(idOrFile, len(es))
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// studyFlags spell the flags the study package puts on its steps' command
// lines (each server as --dsn, which pg and ch take) and names in its
// messages (study run's own --dsn).
func studyFlags() study.Flags { return study.Flags{Server: "--dsn", Servers: "--dsn"} }

// parseStep parses a step's command line as dbmeter would, without running
// it: the command must exist and take every flag given, and leave out
// those study run sets itself.
func parseStep(env Env, args []string) error {
	root := newRoot(env)
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if cmd == root || cmd.RunE == nil {
		return fmt.Errorf("%q is not a dbmeter command that runs", strings.Join(args, " "))
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return fmt.Errorf("%s: %v", cmd.CommandPath(), suggestFlag(cmd, err))
	}
	for _, name := range []string{"json", "quiet"} { // stepRunner sets them
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s is set by study run itself: remove it", name)
		}
	}
	if cmd.Args != nil {
		if err := cmd.Args(cmd, cmd.Flags().Args()); err != nil {
			return err
		}
	}
	return nil
}
