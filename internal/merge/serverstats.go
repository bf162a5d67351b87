package merge

import (
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// mergeServerStats adds the shards' server figures: each statement's
// counters and time (its mean and standard deviation recomputed from the
// sums), the database deltas, and the wait-event samples (shares
// recomputed). transactions is the merged run's, for the server time per
// transaction. Shards of one test against one server each count their own
// statements, so the sums are the test's.
func mergeServerStats(rs []*run, transactions int64) *result.ServerStats {
	var out *result.ServerStats
	stmts := map[string]*result.Statement{}
	for _, r := range rs {
		s := r.ServerStats
		if s == nil {
			continue
		}
		if out == nil {
			out = &result.ServerStats{}
		}
		for _, st := range s.Statements {
			m, ok := stmts[st.QueryID]
			if !ok {
				m = &result.Statement{QueryID: st.QueryID, Query: st.Query}
				stmts[st.QueryID] = m
			}
			m.Calls += st.Calls
			m.Rows += st.Rows
			m.TotalNs += st.TotalNs
			m.SumSqNs2 += st.SumSqNs2
			m.SharedBlksHit += st.SharedBlksHit
			m.SharedBlksRead += st.SharedBlksRead
			m.SharedBlksWrite += st.SharedBlksWrite
			m.WALBytes += st.WALBytes
			m.BlkReadTimeNs += st.BlkReadTimeNs
			m.BlkWriteTimeNs += st.BlkWriteTimeNs
			m.TempBlksWritten += st.TempBlksWritten
			m.LocalBlksRead += st.LocalBlksRead
			m.LocalBlksWritten += st.LocalBlksWritten
		}
		for k, v := range s.Database {
			if out.Database == nil {
				out.Database = map[string]float64{}
			}
			out.Database[k] += v
		}
		if w := s.WaitEvents; w != nil {
			if out.WaitEvents == nil {
				out.WaitEvents = &result.WaitEvents{IntervalNs: w.IntervalNs, Events: map[string]int64{}}
			}
			out.WaitEvents.Samples += w.Samples
			for k, n := range w.Events {
				out.WaitEvents.Events[k] += n
			}
		}
		for _, u := range s.Unavailable {
			if !slices.Contains(out.Unavailable, u) {
				out.Unavailable = append(out.Unavailable, u)
			}
		}
	}
	if out == nil {
		return nil
	}
	var total float64
	for _, id := range sortedKeys(stmts) {
		st := stmts[id]
		st.SetMoments()
		total += st.TotalNs
		out.Statements = append(out.Statements, *st)
	}
	slices.SortStableFunc(out.Statements, func(a, b result.Statement) int {
		if a.TotalNs != b.TotalNs {
			if a.TotalNs > b.TotalNs {
				return -1
			}
			return 1
		}
		return strings.Compare(a.QueryID, b.QueryID)
	})
	if transactions > 0 && len(out.Statements) > 0 {
		out.ServerNsPerOp = total / float64(transactions)
	}
	if out.WaitEvents != nil {
		out.WaitEvents.SetShares()
	}
	return out
}
