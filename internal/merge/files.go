package merge

import (
	"bytes"
	"context"
	"fmt"

	"github.com/dbmeter/dbmeter/internal/usage"
)

// Files merges dbmeter merge's arguments (ReadArgs): the shards' documents,
// and when hdrLog names the merged interval log, their interval logs,
// merged into the buffer returned. Documents that are not the shards of
// one test are the user's mistake.
func Files(ctx context.Context, args []string, hdrLog string) (*Merged, *bytes.Buffer, error) {
	ins, hlogs, err := ReadArgs(args, hdrLog)
	if err != nil {
		return nil, nil, err
	}
	m, err := Merge(ctx, ins)
	if err != nil {
		return nil, nil, usage.Wrap(err)
	}
	var hlog bytes.Buffer
	if hdrLog != "" {
		if err := MergeIntervalLogFiles(&hlog, hlogs); err != nil {
			return nil, nil, err
		}
	}
	return m, &hlog, nil
}

// Notes are the lines to tell the user about the merge, each a warning,
// except that the tables' interval percentiles are an upper bound is a
// note when hdrLog, the merged interval log, holds the exact ones.
func (m *Merged) Notes(hdrLog string) []string {
	out := make([]string, 0, len(m.Warnings))
	for _, w := range m.Warnings {
		if w == IntervalUpperBound && hdrLog != "" {
			out = append(out, fmt.Sprintf("note: the tables' interval p50/p99 are the highest shard's (an upper bound); %s holds each interval's exact merged histogram", hdrLog))
			continue
		}
		out = append(out, "warning: "+w)
	}
	return out
}
