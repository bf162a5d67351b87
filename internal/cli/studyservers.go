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
func checkStudyServers(ctx context.Context, env Env, s *study.Study, dsns []string) error {
	sv, err := study.ParseServers(dsns, env.Getenv, studyFlags())
	if err != nil || !sv.Given {
		return err
	}
	for _, d := range sv.PG {
		if _, _, err := server.Endpoint(d); err != nil {
			return usagef("--dsn %s: not a PostgreSQL address: %v", redact.String(d), errors.Unwrap(err))
		}
	}
	for _, d := range []string{sv.Modern, sv.Legacy} {
		if d == "" {
			continue
		}
		if _, err := ch.ParseDSN(d); err != nil {
			return usagef("--dsn %s: not a ClickHouse address: %v", redact.String(d), err)
		}
	}
	if sv.Modern == "" || !s.Uses("{clickhouse}") {
		return nil
	}
	d, _ := ch.ParseDSN(sv.Modern)
	ctx, cancel := context.WithTimeout(ctx, defaultConnectTimeout)
	defer cancel()
	v, err := ch.ServerVersion(ctx, d)
	if err == nil && v.Less(ch.MinModernServer) {
		return usagef("--dsn %s: this is ClickHouse %s, and {clickhouse} needs %s or newer; it would serve {%s}: give it as --dsn %s",
			redact.String(sv.Modern), v, ch.MinModernServer, study.LabelLegacy, study.Labelled(study.LabelLegacy, sv.Modern))
	}
	return nil
}
