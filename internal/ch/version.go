package ch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Version is a ClickHouse server version such as 18.16.1 or 24.8.4.
type Version struct{ Major, Minor, Patch int }

// ParseVersion reads the leading numbers of what SELECT version() returns
// ("18.16.1", "24.8.4.13").
func ParseVersion(s string) (Version, error) {
	parts := strings.SplitN(strings.TrimSpace(s), ".", 4)
	var nums [3]int
	for i := range nums {
		if i >= len(parts) {
			break
		}
		n, err := strconv.Atoi(parts[i])
		if err != nil || n < 0 {
			return Version{}, fmt.Errorf("parse ClickHouse version %q", s)
		}
		nums[i] = n
	}
	if len(parts) < 2 {
		return Version{}, fmt.Errorf("parse ClickHouse version %q", s)
	}
	return Version{nums[0], nums[1], nums[2]}, nil
}

// Less reports whether v is older than o.
func (v Version) Less(o Version) bool {
	if v.Major != o.Major {
		return v.Major < o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor < o.Minor
	}
	return v.Patch < o.Patch
}

func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// TooOldError says a client cannot talk to a server.
type TooOldError struct {
	Client string
	Server Version
	Min    Version
	// Supported are the client paths that can talk to Server, suggested
	// instead; the family that knows them fills them in.
	Supported []string
}

func (e *TooOldError) Error() string {
	msg := fmt.Sprintf("client %s needs ClickHouse %s or newer, but the server is %s", e.Client, e.Min, e.Server)
	if len(e.Supported) == 0 {
		return msg + ": point {DSN} at a newer server"
	}
	return fmt.Sprintf("%s: pick a client that supports it (%s) or point {DSN} at a newer server", msg, strings.Join(e.Supported, ", "))
}

// Suggest fills the alternatives into err when it is a *TooOldError.
func Suggest(err error, supported []string) error {
	var e *TooOldError
	if errors.As(err, &e) {
		e.Supported = supported
	}
	return err
}

// CheckServer returns a *TooOldError when server is older than min.
func CheckServer(client string, server, min Version) error {
	if server.Less(min) {
		return &TooOldError{Client: client, Server: server, Min: min}
	}
	return nil
}

// MinModernServer is the oldest server dbmeter lets clickhouse-go v2, ch-go
// and the libraries built on them (database/sql, sqlx, gorm) talk to. They
// speak a native protocol revision and send settings that 18.16 does not
// know, and fail against it with protocol errors; 21.8 (LTS) is where
// dbmeter draws the line. clickhouse-go v2 itself declares 25.8 as the
// oldest server it supports (resources.MinSupportedVersion) but only logs a
// warning below it, and ch-go tests against the releases ClickHouse still
// supports: servers from 21.8 to 25.8 are allowed, not vouched for.
var MinModernServer = Version{Major: 21, Minor: 8}
