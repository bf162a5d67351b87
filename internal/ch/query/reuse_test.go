package query

import (
	"math"
	"testing"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Seed 001's pool table: 复用率 (the queries that reused a connection) and
// 连接建立耗时占比 (the queries' time spent opening connections).
func TestReuseFigures(t *testing.T) {
	for _, c := range []struct {
		name               string
		ops, opened, setup int64
		service            float64
		reuse, share       float64
	}{
		{"every query connects", 100, 100, 67e6, 1e6, 0, 67},
		{"fixed pool", 100, 11, 12e6, 1e6, 89, 12},
		{"more opened than queries", 10, 12, 1e6, 1e6, 0, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := result.Run{}
			run.Ops = c.ops
			run.Service = result.Latency{Mean: c.service}
			reuse(&run, PoolStats{Opened: c.opened, SetupNs: c.setup})
			if got := run.Extra["conn_reuse_pct"]; math.Abs(got-c.reuse) > 1e-9 {
				t.Errorf("conn_reuse_pct %v, want %v", got, c.reuse)
			}
			if got := run.Extra["conn_setup_share_pct"]; math.Abs(got-c.share) > 1e-9 {
				t.Errorf("conn_setup_share_pct %v, want %v", got, c.share)
			}
		})
	}
	run := result.Run{}
	run.Ops = 10
	reuse(&run, PoolStats{Opened: -1, SetupNs: -1})
	if _, ok := run.Extra["conn_reuse_pct"]; ok {
		t.Error("a client that does not count its connections got a reuse rate")
	}
}
