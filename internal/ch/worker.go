package ch

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/extworker"
	"github.com/dbmeter/dbmeter/workers"
)

// WorkerConn is the connection part of every external worker's setup
// (docs/worker-protocol.md): the DSN split the way client libraries in
// other languages take it. It carries the password, so it travels only
// over a worker's stdin, never in its arguments.
type WorkerConn struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	User     string `json:"user"`
	Password string `json:"password"`
	Database string `json:"database"`
	// NoDelay is --tcp-nodelay, for a worker whose library lets it choose.
	NoDelay bool `json:"nodelay"`
	// Compression is the DSN's compress (lz4, zstd), empty for none: the
	// worker turns its library's block compression on, as seed 002's
	// author ran SeasClick. Only a worker that declares the method gets
	// it (Worker.Compress); DSN.Check refuses it for the others.
	Compression string `json:"compression,omitempty"`
}

// WorkerConn splits d for a worker.
func (d DSN) WorkerConn(noDelay bool) (WorkerConn, error) {
	if d.TLS != nil {
		return WorkerConn{}, fmt.Errorf("a client in another language gets no TLS settings from dbmeter (docs/worker-protocol.md): drop secure from the DSN")
	}
	host, port, err := net.SplitHostPort(d.Addr)
	if err != nil {
		return WorkerConn{}, fmt.Errorf("server address %s: %w", d.Addr, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return WorkerConn{}, fmt.Errorf("server address %s: port %q is not a number", d.Addr, port)
	}
	return WorkerConn{Host: host, Port: p, User: d.User, Password: d.Password, Database: d.Database, NoDelay: noDelay, Compression: d.Compress}, nil
}

// A Worker says how to start a client that runs outside dbmeter: one of
// the reference workers embedded in the binary (package workers), or a
// user's own command (--worker-cmd).
type Worker struct {
	// Script is the reference worker's file in package workers
	// ("php/seasclick.php"); empty for a user's command.
	Script string
	// Interpreter runs Script: "php" or "python".
	Interpreter string
	// Args follow the script.
	Args []string
	// Compress are the compression methods the worker's library turns on
	// when setup asks (WorkerConn.Compression); a user's worker declares
	// none, so a DSN's compress is refused for it rather than ignored.
	Compress []string
}

// Honours is what the worker takes from a DSN: the connection, and the
// compression its library has. It sends no server settings.
func (w Worker) Honours() Honours {
	h := HonoursWorker
	h.Compress = w.Compress
	return h
}

// Argv is the command line that starts w: the reference script written
// into dir and run by its interpreter, or userCmd split at spaces (a user
// wanting shell quoting passes sh -c '…'). getenv picks the interpreter:
// $DBMETER_PHP, $DBMETER_PYTHON.
func (w Worker) Argv(dir string, userCmd string, getenv func(string) string) ([]string, error) {
	if w.Script == "" {
		argv := strings.Fields(userCmd)
		if len(argv) == 0 {
			return nil, errors.New("the worker client needs the command that starts your worker, and none was given")
		}
		return argv, nil
	}
	path, err := workers.Write(dir, w.Script)
	if err != nil {
		return nil, err
	}
	return append([]string{interpreter(w.Interpreter, getenv), path}, w.Args...), nil
}

// interpreter is the program that runs a reference worker. Debian's
// python3-clickhouse-driver is installed for Debian's own Python, which a
// Python installed elsewhere (pyenv) first on PATH does not see.
func interpreter(lang string, getenv func(string) string) string {
	env := func(k string) string {
		if getenv == nil {
			return ""
		}
		return getenv(k)
	}
	switch lang {
	case "php":
		if v := env("DBMETER_PHP"); v != "" {
			return v
		}
		return "php"
	case "python":
		if v := env("DBMETER_PYTHON"); v != "" {
			return v
		}
		if _, err := os.Stat("/usr/bin/python3"); err == nil {
			return "/usr/bin/python3"
		}
		return "python3"
	}
	return lang
}

// WorkerRows is the header line of the rows file handed to external
// workers: the columns each following line's rows hold, in order.
type WorkerRows struct {
	Columns []string `json:"columns"`
	Types   []string `json:"types"`
}

// WriteWorkerRows writes blocks as the rows file of docs/worker-protocol.md
// at path.
func WriteWorkerRows(path string, blocks []*Block) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write rows for the workers: %w", err)
	}
	err = EncodeWorkerRows(f, blocks)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write rows for the workers: %w", err)
	}
	return nil
}

// EncodeWorkerRows writes blocks in the rows file's format: a header line,
// then one line per block holding its rows as JSON arrays (row-wise, as
// the libraries' insert APIs take them). JSON is the format every language
// decodes in C (PHP's json_decode, Python's json), and it is written once,
// before the run.
func EncodeWorkerRows(out io.Writer, blocks []*Block) error {
	w := bufio.NewWriterSize(out, 1<<20)
	enc := json.NewEncoder(w)
	var h WorkerRows
	if len(blocks) > 0 {
		for _, c := range blocks[0].Columns {
			h.Columns, h.Types = append(h.Columns, c.Name), append(h.Types, c.Type)
		}
	}
	if err := enc.Encode(h); err != nil {
		return err
	}
	var row []any
	for _, b := range blocks {
		rows := make([][]any, b.Rows)
		for i := range rows {
			row = b.Row(i, row)
			rows[i] = append([]any(nil), row...)
		}
		if err := enc.Encode(rows); err != nil {
			return err
		}
	}
	return w.Flush()
}

// The reference workers (package workers), one per library.
var (
	// SeasClick's clickhouse-cpp compresses blocks with LZ4 only.
	SeasClick = Worker{Script: "php/seasclick.php", Interpreter: "php", Compress: []string{"lz4"}}
	// clickhouse-driver has LZ4 and ZSTD, each through Python packages
	// of its extras (lz4 or zstd, and clickhouse-cityhash for the
	// checksums): without them the worker says which to install.
	ClickHouseDriver = Worker{Script: "python/clickhouse_driver_worker.py", Interpreter: "python", Compress: []string{"lz4", "zstd"}}
)

// With returns w with args after its script.
func (w Worker) With(args ...string) *Worker {
	w.Args = append(append([]string(nil), w.Args...), args...)
	return &w
}

// WorkerVersion is what one reference worker says it runs on, or why it
// cannot run here.
type WorkerVersion struct {
	Script string
	Hello  extworker.Hello
	Err    error
}

// WorkerVersions asks each reference worker its hello (interpreter and
// library versions), for `dbmeter version`.
func WorkerVersions(ctx context.Context, getenv func(string) string) ([]WorkerVersion, error) {
	dir, err := os.MkdirTemp("", "dbmeter-worker-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var out []WorkerVersion
	for _, w := range []Worker{SeasClick, ClickHouseDriver} {
		v := WorkerVersion{Script: w.Script}
		argv, err := w.Argv(dir, "", getenv)
		if err == nil {
			v.Hello, err = extworker.Probe(ctx, extworker.Spec{Name: w.Script, Argv: argv, StartTimeout: 10 * time.Second})
		}
		v.Err = err
		out = append(out, v)
	}
	return out, nil
}
