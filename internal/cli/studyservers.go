package cli

import (
	"context"
	"errors"

	"github.com/dbmeter/dbmeter/internal/ch"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/redact"
	"github.com/dbmeter/dbmeter/internal/study"
)

// checkStudyServers refuses, before any step runs, a study run --dsn that
// is not a server a step could use: not a PostgreSQL or ClickHouse
// address, an address its family cannot parse, or a ClickHouse too old
// for {clickhouse}, which is pointed to the placeholder that would serve
// it. A server that does not answer is left to the steps, which say so.
func checkStudyServers(ctx context.Context, env Env, s *study.Study, dsns []string) (study.Servers, error) {
	sv, err := studyServers(dsns, env.Getenv)
	if err != nil {
		return sv, err
	}
	if !sv.Given {
		return sv, checkEnvModern(ctx, s, sv)
	}
	for _, d := range sv.PG {
		if _, _, err := server.Endpoint(d); err != nil {
			return sv, usagef("--dsn %s: not a PostgreSQL address: %v", redact.String(d), errors.Unwrap(err))
		}
	}
	for _, d := range []string{sv.CHModern, sv.CHLegacy} {
		if d == "" {
			continue
		}
		if _, err := ch.ParseDSN(d); err != nil {
			return sv, usagef("--dsn %s: not a ClickHouse address: %v", redact.String(d), err)
		}
	}
	if sv.CHModern == "" || !s.Uses("{clickhouse}") {
		return sv, nil
	}
	if v, old := ch.TooOldForModern(ctx, sv.CHModern, defaultConnectTimeout); old {
		return sv, usagef("--dsn %s: this is ClickHouse %s, and {clickhouse} needs %s or newer; it would serve {%s}: give it as --dsn %s",
			redact.String(sv.CHModern), v, ch.MinModernServer, study.LabelLegacy, study.LabelLegacy+"="+redact.String(sv.CHModern))
	}
	return sv, nil
}

// checkEnvModern refuses the environment's modern ClickHouse when it is
// too old for {clickhouse}, naming the variable that would serve it:
// every modern client of every step would otherwise refuse it, one step
// after the other.
func checkEnvModern(ctx context.Context, s *study.Study, sv study.Servers) error {
	if sv.CHModern == "" || !s.Uses("{clickhouse}") {
		return nil
	}
	if v, old := ch.TooOldForModern(ctx, sv.CHModern, defaultConnectTimeout); old {
		return usagef("the environment's modern ClickHouse (DBMETER_CLICKHOUSE_MODERN_DSN, else DBMETER_CLICKHOUSE_DSN) is ClickHouse %s, and {clickhouse} needs %s or newer; it would serve {%s}: set it as DBMETER_CLICKHOUSE_LEGACY_DSN",
			v, ch.MinModernServer, study.LabelLegacy)
	}
	return nil
}
