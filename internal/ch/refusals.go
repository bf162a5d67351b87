package ch

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// tooOldClients is the refusal of several clients for one reason (the
// same server, the same minimum, the same alternatives), said once.
type tooOldClients struct {
	first   *TooOldError
	clients []string
}

func (e *tooOldClients) Error() string {
	one := *e.first
	one.Client = strings.Join(e.clients, ", ")
	msg := one.Error()
	return "clients " + strings.Replace(strings.TrimPrefix(msg, "client "), " needs ", " need ", 1)
}

func (e *tooOldClients) Unwrap() error { return e.first }

// GroupTooOld folds the refusals of clients that are too new for a server
// for the same reason into one error naming them all, so that six clients
// refused by one old server make one refusal, not six. Other errors, and
// the order of first appearance, are kept.
func GroupTooOld(errs []error) []error {
	var out []error
	groups := map[string]*tooOldClients{}
	for _, err := range errs {
		var e *TooOldError
		if !errors.As(err, &e) {
			out = append(out, err)
			continue
		}
		key := fmt.Sprint(e.Server, e.Min, e.Supported)
		if g := groups[key]; g != nil {
			if !slices.Contains(g.clients, e.Client) {
				g.clients = append(g.clients, e.Client)
			}
			continue
		}
		g := &tooOldClients{first: e, clients: []string{e.Client}}
		groups[key] = g
		out = append(out, g)
	}
	for i, err := range out {
		if g, ok := err.(*tooOldClients); ok && len(g.clients) == 1 {
			out[i] = g.first
		}
	}
	return out
}
