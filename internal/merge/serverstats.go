package merge

import (
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// mergeServerStats adds the shards' server figures: each statement's
// counters and time (its mean and standard deviation recomputed from the
// sums), the database deltas, the wait-event samples (shares
// recomputed), and ClickHouse's per-query histograms (exactly) and sums.
// transactions is the merged run's, for the server time per transaction.
// Shards of one test against one server each count their own statements,
// so the sums are the test's; system.events is the whole server's, so
// each shard saw every shard's queries and the deltas are the largest
// shard's, not their sum.
func mergeServerStats(rs []*run, transactions int64, who func(int) string) (*result.ServerStats, error) {
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
		addStatements(stmts, s.Statements)
		addPostgres(out, s)
		addClickHouse(out, s)
		for _, u := range s.Unavailable {
			if !slices.Contains(out.Unavailable, u) {
				out.Unavailable = append(out.Unavailable, u)
			}
		}
	}
	if out == nil {
		return nil, nil
	}
	var err error
	if out.LatencyNs, err = mergeServerHist(rs, who, "server latency", func(s *result.ServerStats) *result.Phase { return s.LatencyNs }); err != nil {
		return nil, err
	}
	if out.ClientSideNs, err = mergeServerHist(rs, who, "client-side time", func(s *result.ServerStats) *result.Phase { return s.ClientSideNs }); err != nil {
		return nil, err
	}
	var total float64
	out.Statements, total = statementsByTime(stmts)
	if transactions > 0 && len(out.Statements) > 0 {
		out.ServerNsPerOp = total / float64(transactions)
	}
	if l := out.LatencyNs; l != nil && l.Count > 0 {
		out.ServerNsPerOp = float64(l.TotalNs) / float64(l.Count)
	}
	if out.WaitEvents != nil {
		out.WaitEvents.SetShares()
	}
	return out, nil
}

// addStatements adds a shard's statements to the sums by query id: every
// counter and time, and the sum of squares the moments are recomputed
// from.
func addStatements(sums map[string]*result.Statement, stmts []result.Statement) {
	for _, st := range stmts {
		m, ok := sums[st.QueryID]
		if !ok {
			m = &result.Statement{QueryID: st.QueryID, Query: st.Query}
			sums[st.QueryID] = m
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
}

// addPostgres adds a shard's PostgreSQL database deltas and wait-event
// samples (their shares are recomputed at the end).
func addPostgres(out, s *result.ServerStats) {
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
}

// addClickHouse adds a shard's ClickHouse query-log sums and profile
// events. system.events is the whole server's, so each shard saw every
// shard's queries: its deltas are the largest shard's, not their sum.
func addClickHouse(out, s *result.ServerStats) {
	out.NotLogged += s.NotLogged
	out.Exceptions += s.Exceptions
	out.ClientSideNegative += s.ClientSideNegative
	out.ReadRows += s.ReadRows
	out.ReadBytes += s.ReadBytes
	out.MemoryBytes += s.MemoryBytes
	out.MemoryMaxBytes = max(out.MemoryMaxBytes, s.MemoryMaxBytes)
	out.ResolutionNs = max(out.ResolutionNs, s.ResolutionNs)
	for k, v := range s.ProfileEvents {
		if out.ProfileEvents == nil {
			out.ProfileEvents = map[string]int64{}
		}
		out.ProfileEvents[k] += v
	}
	for k, v := range s.Events {
		if out.Events == nil {
			out.Events = map[string]int64{}
		}
		out.Events[k] = max(out.Events[k], v)
	}
}

// statementsByTime lists the summed statements, their moments set, by
// total time (the most expensive first, ties by query id so the order is
// stable), with their total time.
func statementsByTime(sums map[string]*result.Statement) (_ []result.Statement, totalNs float64) {
	var out []result.Statement
	for _, id := range sortedKeys(sums) {
		st := sums[id]
		st.SetMoments()
		totalNs += st.TotalNs
		out = append(out, *st)
	}
	slices.SortStableFunc(out, func(a, b result.Statement) int {
		if a.TotalNs != b.TotalNs {
			if a.TotalNs > b.TotalNs {
				return -1
			}
			return 1
		}
		return strings.Compare(a.QueryID, b.QueryID)
	})
	return out, totalNs
}

// mergeServerHist adds one of the shards' server histograms; nil when no
// shard has it.
func mergeServerHist(rs []*run, who func(int) string, what string, get func(*result.ServerStats) *result.Phase) (*result.Phase, error) {
	var total, count int64
	has := false
	for _, r := range rs {
		if r.ServerStats != nil && get(r.ServerStats) != nil {
			p := get(r.ServerStats)
			total, count, has = total+p.TotalNs, count+p.Count, true
		}
	}
	if !has {
		return nil, nil
	}
	lat, enc, err := sumHists(rs, func(i int) string { return who(i) + " " + what }, func(r *run) (string, result.Latency) {
		if r.ServerStats == nil || get(r.ServerStats) == nil {
			return "", result.Latency{}
		}
		p := get(r.ServerStats)
		return p.HDR, p.Latency
	})
	if err != nil {
		return nil, err
	}
	return &result.Phase{Count: count, Latency: lat, TotalNs: total, HDR: enc}, nil
}
