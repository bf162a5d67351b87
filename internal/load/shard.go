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
