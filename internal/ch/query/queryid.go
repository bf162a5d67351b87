package query

import "context"

type queryIDKey struct{}

// WithQueryID asks the client path to send id as the query's id, so the
// server logs the query under it (system.query_log) and the run can join
// the server's record to its own latency. Paths that cannot set an id
// ignore it.
func WithQueryID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, queryIDKey{}, id)
}

// QueryID is the id WithQueryID put in ctx; "" when none.
func QueryID(ctx context.Context) string {
	id, _ := ctx.Value(queryIDKey{}).(string)
	return id
}
