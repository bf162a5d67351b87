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
