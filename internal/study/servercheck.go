package study

import (
	"context"
	"errors"
	"time"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// CheckServers refuses, before any step of s runs, a server given to
// study run (sv.Given) that no step could use: an address its family
// cannot parse, or a ClickHouse too old for {clickhouse}, which is pointed
// to the placeholder that would serve it (asked its version within
// timeout). A server that does not answer is left to the steps, which say
// so. Its refusals are usage errors naming the flag as f.Servers spells
// it, the password masked.
func CheckServers(ctx context.Context, s *Study, sv Servers, f Flags, timeout time.Duration) error {
	if !sv.Given {
		return checkEnvModern(ctx, s, sv, timeout)
	}
	for _, d := range sv.PG {
		if _, _, err := server.Endpoint(d); err != nil {
			return usage.Errorf("%s %s: not a PostgreSQL address: %v", f.Servers, redact.String(d), errors.Unwrap(err))
		}
	}
	for _, d := range []string{sv.CHModern, sv.CHLegacy} {
		if d == "" {
			continue
		}
		if _, err := ch.ParseDSN(d); err != nil {
			return usage.Errorf("%s %s: not a ClickHouse address: %v", f.Servers, redact.String(d), err)
		}
	}
	if sv.CHModern == "" || !s.Uses("{clickhouse}") {
		return nil
	}
	if v, old := ch.TooOldForModern(ctx, sv.CHModern, timeout); old {
		return usage.Errorf("%s %s: this is ClickHouse %s, and {clickhouse} needs %s or newer; it would serve {%s}: give it as %s %s",
			f.Servers, redact.String(sv.CHModern), v, ch.MinModernServer, LabelLegacy, f.Servers, LabelLegacy+"="+redact.String(sv.CHModern))
	}
	return nil
}

// checkEnvModern refuses the environment's modern ClickHouse when it is
// too old for {clickhouse}, naming the variable that would serve it:
// every modern client of every step would otherwise refuse it, one step
// after the other.
func checkEnvModern(ctx context.Context, s *Study, sv Servers, timeout time.Duration) error {
	if sv.CHModern == "" || !s.Uses("{clickhouse}") {
		return nil
	}
	if v, old := ch.TooOldForModern(ctx, sv.CHModern, timeout); old {
		return usage.Errorf("the environment's modern ClickHouse (DBMETER_CLICKHOUSE_MODERN_DSN, else DBMETER_CLICKHOUSE_DSN) is ClickHouse %s, and {clickhouse} needs %s or newer; it would serve {%s}: set it as DBMETER_CLICKHOUSE_LEGACY_DSN",
			v, ch.MinModernServer, LabelLegacy)
	}
	return nil
}
