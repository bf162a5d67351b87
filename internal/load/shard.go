package load

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseShard reads I/N (0 <= I < N).
func ParseShard(s string) (Shard, error) {
	var sh Shard
	i, n, ok := strings.Cut(s, "/")
	var err1, err2 error
	if ok {
		sh.Index, err1 = strconv.Atoi(i)
		sh.Count, err2 = strconv.Atoi(n)
	}
	if !ok || err1 != nil || err2 != nil || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return Shard{}, fmt.Errorf("%q: want I/N with 0 <= I < N, e.g. 0/4", s)
	}
	return sh, nil
}

// ParseStartAt reads an RFC 3339 time, or +DURATION from now; a time more
// than a minute past is an error.
func ParseStartAt(s string, now time.Time) (time.Time, error) {
	if d, ok := strings.CutPrefix(s, "+"); ok {
		dur, err := time.ParseDuration(d)
		if err != nil || dur < 0 {
			return time.Time{}, fmt.Errorf("%q: want +DURATION such as +30s, or an RFC 3339 time", s)
		}
		return now.Add(dur), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: want an RFC 3339 time such as 2026-11-23T15:00:00Z, or +DURATION", s)
	}
	if now.Sub(t) > time.Minute {
		return time.Time{}, fmt.Errorf("%s is in the past: give a time to come", s)
	}
	return t, nil
}

// ShardSpec is how one process takes its part of a test split into
// shards: which shard it is ("I/N", "" for an unsplit test) and when the
// shards start together ("" for at once; see ParseStartAt).
type ShardSpec struct {
	Shard, StartAt string
	// Pool says the test's workers are a fixed pool of numbered clients,
	// in open loop too (pgbench's -c under -R, one connection each): see
	// ForPoolShard.
	Pool bool
}

// Apply returns cfg as this process's part of the test and the number,
// in the whole test, of its first worker (0 unsplit): a family that
// numbers its clients (pgbench's :client_id and per-client generators)
// numbers this shard's from there, so the shards together are the clients
// one process would run. Its errors name {Shard}, {StartAt} and cfg's
// fields.
func (s ShardSpec) Apply(cfg Config, now time.Time) (Config, int, error) {
	first := 0
	if s.Shard != "" {
		sh, err := ParseShard(s.Shard)
		if err != nil {
			return cfg, 0, fmt.Errorf("{Shard} %w", err)
		}
		f0, _ := sh.Part(int64(cfg.Workers))
		first = int(f0)
		if s.Pool {
			cfg, err = cfg.ForPoolShard(sh)
		} else {
			cfg, err = cfg.ForShard(sh)
		}
		if err != nil {
			return cfg, 0, err
		}
	}
	if s.StartAt != "" {
		t, err := ParseStartAt(s.StartAt, now)
		if err != nil {
			return cfg, 0, fmt.Errorf("{StartAt} %w", err)
		}
		cfg.StartAt = t
	}
	return cfg, first, nil
}

// ForShard returns c as shard sh's part of the test c describes: the rate,
// the workers and the count divided among the shards. Open loop makes
// workers on demand, so each shard needs only one to begin with; closed
// loop's workers are the load itself and must not run out.
func (c Config) ForShard(sh Shard) (Config, error) {
	c.Shard = sh
	switch {
	case c.Open():
		c.Workers = max(1, int(sh.Split(int64(c.Workers))))
	case c.Workers < sh.Count:
		return c, fmt.Errorf("{Workers} %d cannot be divided among %d shards: give at least %d", c.Workers, sh.Count, sh.Count)
	default:
		c.Workers = int(sh.Split(int64(c.Workers)))
	}
	if c.Count > 0 {
		if c.Count = sh.Split(c.Count); c.Count < int64(c.Workers) {
			return c, fmt.Errorf("{Count} is too small to divide among %d shards of %d workers", sh.Count, c.Workers)
		}
	}
	c.Rate /= float64(sh.Count)
	return c, nil
}

// ForPoolShard is ForShard for a test whose workers are a fixed pool of
// clients in open loop too (pgbench's -c under -R): the pool divides as
// closed loop's workers do, MaxInFlight with it, and Count with it, each
// worker keeping the quota it has in one process (pgbench's -t is per
// client).
func (c Config) ForPoolShard(sh Shard) (Config, error) {
	if c.Workers < sh.Count {
		return c, fmt.Errorf("{Workers} %d cannot be divided among %d shards: give at least %d", c.Workers, sh.Count, sh.Count)
	}
	first, n := sh.Part(int64(c.Workers))
	if c.Count > 0 {
		// Worker i of W runs Count/W, one more when i < Count%W, as the
		// closed loop deals them out.
		w := int64(c.Workers)
		extra := max(0, min(first+n, c.Count%w)-first)
		c.Count = n*(c.Count/w) + extra
	}
	c.Shard = sh
	c.Workers = int(n)
	if c.Open() {
		c.MaxInFlight = c.Workers
	}
	c.Rate /= float64(sh.Count)
	return c, nil
}
