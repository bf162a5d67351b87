// Package nullserver is the ClickHouse protocol stand-in (internal/ch/standin)
// holding dbmeter's own insert table and query data set, so that ch insert
// and ch query run against it as they are, needing no table of their own:
// what `dbmeter ch null-server` serves and the tests and studies start.
package nullserver

import (
	"fmt"
	"os"

	"github.com/dbmeter/dbmeter/internal/ch/insert"
	"github.com/dbmeter/dbmeter/internal/ch/query"
	"github.com/dbmeter/dbmeter/internal/ch/standin"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Options is a null-server as the user asks for it. Its messages name
// its fields as {Field}, for the CLI to spell.
type Options struct {
	// Listen is the address of both the native protocol and HTTP.
	Listen string
	// TLS serves TLS only, with a self-signed certificate; CertOut, when
	// set, is the file the certificate is written to (PEM), for a DSN's
	// ca_file.
	TLS     bool
	CertOut string
}

// Validate refuses options that contradict each other.
func (o Options) Validate() error {
	if o.CertOut != "" && !o.TLS {
		return usage.Errorf("{CertOut} needs {TLS}")
	}
	return nil
}

// Start starts a stand-in holding dbmeter's own tables and writes its
// certificate to CertOut when asked.
func Start(o Options) (*standin.Server, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	srv, err := standin.Listen(o.Listen, standin.Options{TLS: o.TLS})
	if err != nil {
		return nil, usage.Errorf("{Listen} %s: %v", o.Listen, err)
	}
	stmts := append([]string{"CREATE DATABASE " + insert.DefaultDatabase,
		insert.CreateSQL(insert.Table{Database: insert.DefaultDatabase, Name: "event"}, insert.EventTable, 0, "")},
		query.DefaultDataset().Statements()...)
	for _, q := range stmts {
		if err := srv.Exec(q); err != nil {
			srv.Close()
			return nil, fmt.Errorf("null-server: make dbmeter's tables: %w", err)
		}
	}
	if o.CertOut != "" {
		if err := os.WriteFile(o.CertOut, srv.CertPEM(), 0o644); err != nil {
			srv.Close()
			return nil, fmt.Errorf("write {CertOut}: %w", err)
		}
	}
	return srv, nil
}
