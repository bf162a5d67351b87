package study

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// untilDecided repeats the steps behind undecided claims, as the Phoronix
// Test Suite adds runs while its spread is high: each round runs every
// such step once more and adds its runs to the step's, so the cells pool
// more repetitions and their intervals narrow. It stops when every claim
// is decided (or cannot be checked), when the budget would be overrun,
// or when a round adds nothing.
func untilDecided(ctx context.Context, s *Study, r Runner, o Options, doc *Document) {
	deadline := time.Now().Add(o.UntilDecided)
	failed := map[string]bool{}
	for round := 1; ctx.Err() == nil; round++ {
		open, ids := undecidedSteps(s, doc, failed)
		if open == 0 {
			fmt.Fprintf(o.Log, "study %s: every claim decided or not checkable here\n", s.ID)
			return
		}
		if len(ids) == 0 {
			fmt.Fprintf(o.Log, "study %s: %d claims undecided, and no step of theirs can run again\n", s.ID, open)
			return
		}
		added := 0
		for _, id := range ids {
			i := slices.IndexFunc(doc.Steps, func(sr StepRun) bool { return sr.ID == id })
			sr := &doc.Steps[i]
			if time.Now().Add(time.Duration(sr.WallS / float64(sr.Rounds+1) * float64(time.Second))).After(deadline) {
				fmt.Fprintf(o.Log, "study %s: budget %s spent: %d claims still undecided\n", s.ID, o.UntilDecided, open)
				return
			}
			fmt.Fprintf(o.Log, "study %s: round %d, %d claims undecided: step %s again\n", s.ID, round, open, id)
			if n := repeatStep(ctx, s, r, o, sr); n > 0 {
				added += n
			} else {
				failed[id] = true
			}
		}
		if added == 0 {
			return
		}
	}
}

// undecidedSteps counts the undecided claims of doc and names the steps
// whose runs fill their cells, in study order: those that ran, are not
// setup steps and have not failed to run again.
func undecidedSteps(s *Study, doc *Document, failed map[string]bool) (int, []string) {
	v := Evaluate(s, doc)
	want := map[string]bool{}
	open := 0
	for _, c := range v.Claims {
		if c.Verdict != Undecided {
			continue
		}
		open++
		for _, r := range append(append([]Ref{c.Claim.A, c.Claim.B, c.Claim.Cell}, c.Claim.Cells...), c.Claim.Leaders...) {
			if len(r) == 0 {
				continue
			}
			if t := v.table(r[0]); t != nil {
				for _, id := range t.StepIDs() {
					want[id] = true
				}
			}
		}
	}
	var ids []string
	for _, st := range s.Steps {
		sr := stepRun(doc, st.ID)
		if want[st.ID] && !st.Setup && !failed[st.ID] && sr != nil && sr.Result != nil && sr.Skipped == "" {
			ids = append(ids, st.ID)
		}
	}
	return open, ids
}

func stepRun(doc *Document, id string) *StepRun {
	for i := range doc.Steps {
		if doc.Steps[i].ID == id {
			return &doc.Steps[i]
		}
	}
	return nil
}

// repeatStep runs a step again and adds its runs to sr's, numbering their
// repetitions after the ones before; it returns how many runs it added.
func repeatStep(ctx context.Context, s *Study, r Runner, o Options, sr *StepRun) int {
	st := s.Steps[slices.IndexFunc(s.Steps, func(st Step) bool { return st.ID == sr.ID })]
	line := st.Run
	if o.Quick && st.Quick != "" {
		line = st.Quick
	}
	args, _, stop, why := expand(line, o)
	if stop != nil {
		defer stop()
	}
	if why != "" {
		return 0
	}
	var again StepRun
	runStep(ctx, r, args, false, &again)
	if again.Result == nil || again.Error != "" || again.Skipped != "" || again.Interrupted {
		fmt.Fprintf(o.Log, "study %s: step %s did not run again: %s\n", s.ID, sr.ID, strings.TrimSpace(again.Error+" "+again.Skipped))
		return 0
	}
	last := 0
	for _, run := range sr.Result.Runs {
		last = max(last, run.Repeat)
	}
	for _, run := range again.Result.Runs {
		run.Repeat += last
		sr.Result.Runs = append(sr.Result.Runs, run)
	}
	sr.WallS += again.WallS
	sr.Rounds++
	return len(again.Result.Runs)
}

// Failure is the first step that failed, as study run's error; nil when
// none did.
func (d *Document) Failure() error {
	for _, st := range d.Steps {
		if st.Error != "" {
			return fmt.Errorf("study %s: step %s failed: %s", d.Study, st.ID, st.Error)
		}
	}
	return nil
}
