package sink

import (
	"fmt"

	"github.com/dbmeter/dbmeter/internal/report"
	"github.com/dbmeter/dbmeter/internal/result"
)

// AddCapacity implements plan.Sink: the answer goes in the document and
// its line on stdout at once, --quiet or not: it is the answer, not a
// table.
func (s *Sink) AddCapacity(c result.Capacity) {
	s.endLine()
	s.doc.Capacity = append(s.doc.Capacity, c)
	s.checkpoint()
	fmt.Fprintln(s.io.Stdout, report.CapacityLine(c))
}

// stepLine prints a capacity search step as it is judged, --quiet or not:
// a search takes minutes and its steps are how a user follows it.
func (s *Sink) stepLine(r result.Run) {
	if r.Verdict != nil {
		fmt.Fprintln(s.io.Stdout, report.StepLine(r))
	}
}
