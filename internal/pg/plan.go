package pg

import (
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/pg/bench"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/script"
	"github.com/dbmeter/dbmeter/internal/pg/server"
	"github.com/dbmeter/dbmeter/internal/redact"
)

// This file holds what a pgbench command line means before and around the
// runs, apart from flag parsing: which servers, which scripts, which seed,
// and the preparation pgbench does on each server.

// ServerSpec says where the servers are, as pgbench's connection options
// and environment do, or as dbmeter's --dsn list does.
type ServerSpec struct {
	DSNs                     []string // --dsn, repeatable
	Host, Port, User, DBName string   // -h, -p, -U, DBNAME
	// Getenv reads PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD and
	// PGSSLMODE; nil reads nothing.
	Getenv func(string) string
}

// Servers returns the DSNs to benchmark and the secrets they hold (for
// scrubbing output). Its errors are mistakes on the command line.
func Servers(s ServerSpec) (dsns, secrets []string, err error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if pw := getenv("PGPASSWORD"); pw != "" {
		secrets = append(secrets, pw)
	}
	if len(s.DSNs) > 0 {
		if s.Host != "" || s.Port != "" || s.User != "" || s.DBName != "" {
			return nil, nil, errors.New("give the server with {DSNs} or with {Host}/{Port}/{User}/DBNAME, not both")
		}
		for _, d := range s.DSNs {
			if scheme, _, ok := strings.Cut(d, "://"); ok && scheme != "postgres" && scheme != "postgresql" {
				return nil, nil, fmt.Errorf("{DSNs} %s: not a PostgreSQL address: want postgres://… or the key=value form (host=… dbname=…)", redact.String(d))
			}
			if _, _, err := server.Endpoint(d); err != nil {
				return nil, nil, fmt.Errorf("{DSNs} %s: %v", redact.String(d), errors.Unwrap(err))
			}
			secrets = append(secrets, redact.Values(d)...)
		}
		return s.DSNs, secrets, nil
	}
	or := func(v, name string) string {
		if v != "" {
			return v
		}
		return getenv(name)
	}
	ci := server.ConnInfo{
		Host:     or(s.Host, "PGHOST"),
		Port:     or(s.Port, "PGPORT"),
		User:     or(s.User, "PGUSER"),
		Password: getenv("PGPASSWORD"),
		DBName:   or(s.DBName, "PGDATABASE"),
		SSLMode:  getenv("PGSSLMODE"),
	}
	if ci.DBName == "" {
		ci.DBName = ci.User // libpq's default
	}
	dsn := ci.DSN()
	if _, _, err := server.Endpoint(dsn); err != nil {
		return nil, nil, fmt.Errorf("bad connection settings: %v", errors.Unwrap(err))
	}
	return []string{dsn}, secrets, nil
}

// TargetNames names each server host:port, adding the database when two
// DSNs share a host and port.
func TargetNames(dsns []string) []string {
	out := make([]string, len(dsns))
	count := map[string]int{}
	for i, d := range dsns {
		hp, _, _ := server.Endpoint(d)
		out[i] = hp
		count[hp]++
	}
	for i, d := range dsns {
		if count[out[i]] > 1 {
			_, db, _ := server.Endpoint(d)
			out[i] += "/" + db
		}
	}
	return out
}

// ScriptSpec is pgbench's choice of scripts: -b, -S, -N and -f.
type ScriptSpec struct {
	Builtins, Files          []string // NAME[@WEIGHT], FILE[@WEIGHT]
	SelectOnly, SimpleUpdate bool     // -S, -N
	// Defined names the -D variables.
	Defined []string
}

// LoadScripts parses the scripts in pgbench's order, built-ins first, into
// one variable namespace (a client's scripts share its variables), and
// says whether a built-in is among them (the pgbench tables must then
// exist). Its errors are mistakes in the command line or the scripts.
func LoadScripts(s ScriptSpec) (ws []bench.Weighted, builtin bool, err error) {
	specs := append([]string(nil), s.Builtins...)
	if s.SelectOnly {
		specs = append(specs, "select-only")
	}
	if s.SimpleUpdate {
		specs = append(specs, "simple-update")
	}
	if len(specs) == 0 && len(s.Files) == 0 {
		specs = []string{"tpcb-like"}
	}
	ns := script.NewNames(append(script.Predefined(), s.Defined...)...)
	for _, spec := range specs {
		name, w, err := splitWeight(spec, "{Builtins}")
		if err != nil {
			return nil, false, err
		}
		full, sc, err := script.BuiltinIn(ns, name)
		if err != nil {
			return nil, false, err
		}
		ws = append(ws, bench.Weighted{Name: full, Script: sc, Weight: w})
		builtin = true
	}
	for _, spec := range s.Files {
		path, w, err := splitWeight(spec, "{Files}")
		if err != nil {
			return nil, false, err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, false, fmt.Errorf("{Files} %s: %v", path, errors.Unwrap(err))
		}
		sc, err := script.ParseIn(ns, path, string(src))
		if err != nil {
			return nil, false, err
		}
		ws = append(ws, bench.Weighted{Name: filepath.Base(path), Script: sc, Weight: w})
	}
	total := 0
	for _, w := range ws {
		total += w.Weight
	}
	if total == 0 {
		return nil, false, errors.New("the script weights add up to 0: give at least one a positive weight")
	}
	return ws, builtin, nil
}

// splitWeight cuts "NAME@WEIGHT" (weight 1 when absent).
func splitWeight(spec, field string) (string, int, error) {
	i := strings.LastIndex(spec, "@")
	if i < 0 {
		return spec, 1, nil
	}
	w, err := strconv.Atoi(spec[i+1:])
	if err != nil || w < 0 {
		return "", 0, fmt.Errorf("%s %q: the weight after @ must be a non-negative integer", field, spec)
	}
	return spec[:i], w, nil
}

// ParseDrivers checks --driver values (repeatable or comma-separated) and
// drops repeats, keeping the order.
func ParseDrivers(names []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, d := range names {
		d = strings.TrimSpace(d)
		if _, err := driver.Lookup(d); err != nil {
			return nil, err
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("{Drivers} needs at least one of: %s", strings.Join(driver.Names(), ", "))
	}
	return out, nil
}

// ParseDefines reads -D NAME=VALUE definitions: the values, kept as text
// until an expression reads them (as pgbench), and the names in order.
func ParseDefines(defs []string) (map[string]script.Value, []string, error) {
	vars := map[string]script.Value{}
	var names []string
	for _, d := range defs {
		name, value, ok := strings.Cut(d, "=")
		if !ok || name == "" {
			return nil, nil, fmt.Errorf("{Defines} %q: want NAME=VALUE", d)
		}
		vars[name] = script.Text(value)
		names = append(names, name)
	}
	return vars, names, nil
}

// WorkloadName names a run's scripts: the script, or NAME@W+NAME@W.
func WorkloadName(ws []bench.Weighted) string {
	if len(ws) == 1 {
		return ws[0].Name
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("%s@%d", w.Name, w.Weight)
	}
	return strings.Join(parts, "+")
}

// ParseSeed reads --random-seed as pgbench does: an unsigned integer,
// "time" (the clock in microseconds) or "rand" (a strong random number).
func ParseSeed(s string) (uint64, error) {
	switch s {
	case "time":
		return uint64(time.Now().UnixMicro()), nil
	case "rand":
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			return 0, fmt.Errorf("{SeedSpec} rand: %w", err)
		}
		return binary.LittleEndian.Uint64(b[:]), nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("unrecognized random seed option %q: expecting an unsigned integer, \"time\" or \"rand\"", s)
	}
	return v, nil
}

// FileTxLog is -l writing files as pgbench names them: PREFIX.PID for the
// first thread, PREFIX.PID.THREAD for the others. run > 0 (a further
// server or driver of the same invocation) writes PREFIX-(run+1).PID….
func FileTxLog(prefix string, run int, aggregate time.Duration, samplingRate float64) *bench.TxLog {
	if run > 0 {
		prefix = fmt.Sprintf("%s-%d", prefix, run+1)
	}
	pid := os.Getpid()
	return &bench.TxLog{
		Aggregate:    aggregate,
		SamplingRate: samplingRate,
		Open: func(thread int) (io.WriteCloser, error) {
			name := fmt.Sprintf("%s.%d", prefix, pid)
			if thread > 0 {
				name = fmt.Sprintf("%s.%d", name, thread)
			}
			return os.Create(name)
		},
	}
}
