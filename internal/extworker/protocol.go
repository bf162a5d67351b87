package extworker

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
)

// Version is the protocol version this dbmeter speaks. A worker whose hello
// names another is refused before any operation.
const Version = 1

// Hello is the first line a worker writes: who it is. A worker that cannot
// run (its client library is missing) says why in Error and exits.
type Hello struct {
	Protocol int    `json:"protocol"`
	Language string `json:"language"`
	Runtime  string `json:"runtime"`
	Library  string `json:"library"`
	Error    string `json:"error,omitempty"`
}

// Reply is a worker's answer to one request.
type Reply struct {
	OK bool `json:"ok"`
	// Kind and Error describe a failure: Kind is one of the Kind*
	// constants.
	Kind  string `json:"kind,omitempty"`
	Error string `json:"error,omitempty"`
	Rows  int64  `json:"rows"`
	Bytes int64  `json:"bytes"`
	// Ns is the worker's own timing of the operation, from receiving the
	// request to having the result, in nanoseconds.
	Ns int64 `json:"ns"`
	// Phases are optional named parts of Ns ("build", "send", "decode").
	Phases map[string]int64 `json:"phases,omitempty"`
}

// Error kinds a worker may give a failed operation. They are load's kinds,
// so back-off and reconnects treat a worker's failures as they treat a Go
// client's.
const (
	KindConnection = load.KindConnection // the database connection is gone or cannot be made
	KindServer     = load.KindServer     // the server refused the operation
	KindTimeout    = load.KindTimeout    // the client gave up waiting
	KindOther      = load.KindOther      // anything else
)

// Client is the phase name under which a workload records Reply.Ns.
const Client = "client"

// Phase returns the named phase of r as a duration (0: absent).
func (r *Reply) Phase(name string) time.Duration { return time.Duration(r.Phases[name]) }

// Err is the failure a reply reports, carrying its kind for load.Classify;
// nil for an ok reply.
func (r *Reply) Err(name string, secrets []string) error {
	if r.OK {
		return nil
	}
	return load.WithKind(&OpError{Worker: name, Msg: mask(r.Error, secrets)}, r.kind())
}

// kind is the reply's kind, other when it names none dbmeter knows.
func (r *Reply) kind() string {
	switch r.Kind {
	case KindConnection, KindServer, KindTimeout:
		return r.Kind
	}
	return KindOther
}

// OpError is an operation a worker reported as failed.
type OpError struct {
	Worker string
	Msg    string
}

func (e *OpError) Error() string { return e.Worker + ": " + e.Msg }

// setupRequest wraps the family's setup parameters.
type setupRequest struct {
	Op     string `json:"op"`
	Params any    `json:"params"`
}

// Requests of every family. Families add their own (insert, query, …).
var (
	pingRequest  = []byte(`{"op":"ping"}`)
	resetRequest = []byte(`{"op":"reset"}`)
)

// Request is a request with op and the given fields, as one JSON object.
func Request(op string, fields map[string]any) ([]byte, error) {
	m := make(map[string]any, len(fields)+1)
	for k, v := range fields {
		m[k] = v
	}
	m["op"] = op
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode %s request: %w", op, err)
	}
	return b, nil
}
