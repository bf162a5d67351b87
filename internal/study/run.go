package study

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/usage"
)

// Schema names the layout of a study's result document.
const Schema = "dbmeter-study/v1"

// Document is one run of a study: every step's result document, the
// study file it ran (text and SHA-256) and which form.
type Document struct {
	Schema    string    `json:"schema"`
	Study     string    `json:"study"`
	Title     string    `json:"title"`
	File      string    `json:"file"`
	SHA256    string    `json:"sha256"`
	Quick     bool      `json:"quick"`
	StartedAt time.Time `json:"started_at"`
	WallS     float64   `json:"wall_s"`
	Steps     []StepRun `json:"steps"`
	// Text is the study file, so the document can be checked and compared
	// again without it.
	Text string `json:"text"`
}

// StepRun is one step as it ran here.
type StepRun struct {
	ID string `json:"id"`
	// Command is the command line with placeholders named, not expanded
	// (no address or password).
	Command string `json:"command"`
	// Standin says the step's modern ClickHouse was the protocol stand-in.
	Standin bool `json:"standin,omitempty"`
	// Skipped says why the step did not run; Error why it failed.
	Skipped string `json:"skipped,omitempty"`
	Error   string `json:"error,omitempty"`
	// Interrupted says a signal cut the step short: Result holds what it
	// measured until then, and no step ran after it.
	Interrupted bool             `json:"interrupted,omitempty"`
	WallS       float64          `json:"wall_s"`
	Result      *result.Document `json:"result,omitempty"`
	// Rounds counts the times the step ran again to decide its claims
	// (Options.UntilDecided); its runs are every round's, together.
	Rounds int `json:"rounds,omitempty"`
}

// Runner runs one dbmeter command line (without "dbmeter"), each in a
// process of its own, and returns the result document it wrote; with
// result false (a setup step) it asks for none. A step that cannot run on
// this machine returns an *Unavailable; a step that failed returns its
// error beside whatever document it wrote (a variant that completed
// nothing fails the command, and the document says so: Document.Empty).
type Runner interface {
	Step(ctx context.Context, args []string, result bool) (*result.Document, error)
}

// Unavailable says a step cannot run on this machine (for example its
// storage profile needs root or cgroups): the step is skipped with Reason,
// its tables and claims "cannot be checked here", and the study goes on,
// as for a server not given. It is not the step failing.
type Unavailable struct{ Reason string }

func (u *Unavailable) Error() string { return u.Reason }

// Placeholders are the words a step's command line may hold for the
// servers study run is given (Servers):
//
//	{pg}                 --dsn for each PostgreSQL server
//	{pg1}, {pg2}         --dsn of the first, the second of them alone: a
//	                     step that runs one server of several, as a run
//	                     under --storage-profile must (one server at a time)
//	{clickhouse-legacy}  --dsn of the ClickHouse 18.16 server
//	{clickhouse}         --dsn of a modern ClickHouse, else the protocol
//	                     stand-in
//
// Each may carry DSN parameters for its step, added to every DSN it
// stands for: {clickhouse-legacy?compress=lz4} is the legacy server with
// block compression (seed 002's author ran SeasClick so).
func Placeholders() []string {
	return []string{"{pg}", "{pg1}", "{pg2}", "{clickhouse-legacy}", "{clickhouse}"}
}

// Servers are the servers a study's steps run against, as the CLI
// resolved them from study run's flags and the environment: the study
// itself reads no environment.
type Servers struct {
	// PG are the PostgreSQL servers' DSNs ({pg}, {pg1}, {pg2}).
	PG []string
	// CHLegacy is the ClickHouse 18.16 server's DSN ({clickhouse-legacy}).
	CHLegacy string
	// CHModern is a modern ClickHouse's DSN ({clickhouse}); "" runs its
	// steps on the stand-in.
	CHModern string
	// Given says they were given to study run, and the environment was
	// not read: a step without its server is skipped saying so.
	Given bool
}

// Options are how a study runs here.
type Options struct {
	Quick   bool
	Servers Servers
	// Standin starts the ClickHouse protocol stand-in and returns its
	// native DSN.
	Standin func() (dsn string, stop func(), err error)
	// Log receives one line per step as it starts and ends.
	Log io.Writer
	// Flags spell the flags the steps' command lines and the messages need.
	Flags Flags
	// UntilDecided, above 0, is the time the study may spend after its
	// steps running again those whose cells leave a claim undecided
	// (decide.go).
	UntilDecided time.Duration
}

// Flags spell the dbmeter flags a study puts on its steps' command lines
// and names in its messages. Only the CLI spells dbmeter's flags: it binds
// them, and gives their spellings here.
type Flags struct {
	// Server is how a step's command takes a server: each placeholder
	// becomes Server and the server's DSN.
	Server string
	// Servers is study run's flag that gives the study its servers,
	// named in the reason a step has none.
	Servers string
}

// Run runs every step of s and returns the study's result document. A
// step that cannot run here (no server given) is skipped with its reason;
// a step that fails is recorded with its error and the others still run.
// A step cut short by ctx (a signal) keeps what it measured, marked
// interrupted, and no step runs after it.
func Run(ctx context.Context, s *Study, r Runner, o Options) (*Document, error) {
	doc := &Document{Schema: Schema, Study: s.ID, Title: s.Title, File: s.File, SHA256: s.Hash, Quick: o.Quick, StartedAt: time.Now().UTC(), Text: s.Text}
	for i, st := range s.Steps {
		if ctx.Err() != nil {
			break
		}
		line := st.Run
		if o.Quick && st.Quick != "" {
			line = st.Quick
		}
		sr := StepRun{ID: st.ID, Command: "dbmeter " + strings.TrimPrefix(line, "dbmeter ")}
		args, standin, stop, why := expand(line, o)
		sr.Standin, sr.Skipped = standin, why
		fmt.Fprintf(o.Log, "study %s: step %d/%d %s: %s\n", s.ID, i+1, len(s.Steps), st.ID, sr.Command)
		if why == "" {
			runStep(ctx, r, args, st.Setup, &sr)
		}
		if stop != nil {
			stop()
		}
		switch {
		case sr.Skipped != "":
			fmt.Fprintf(o.Log, "study %s: step %s skipped: %s\n", s.ID, st.ID, sr.Skipped)
		case sr.Interrupted:
			fmt.Fprintf(o.Log, "study %s: step %s interrupted\n", s.ID, st.ID)
		case sr.Error != "":
			fmt.Fprintf(o.Log, "study %s: step %s failed: %s\n", s.ID, st.ID, sr.Error)
		}
		doc.Steps = append(doc.Steps, sr)
		if st.Setup && sr.Error != "" {
			break
		}
	}
	if o.UntilDecided > 0 && ctx.Err() == nil {
		untilDecided(ctx, s, r, o, doc)
	}
	doc.WallS = time.Since(doc.StartedAt).Seconds()
	return doc, ctx.Err()
}

// runStep runs one step through r and records how it went in sr. A
// failed step whose document says only that some variant completed no
// operation (a cell the engine cannot finish in so short a window) is not
// a failure: it measured what it could, and the study shows the empty
// cell as such.
func runStep(ctx context.Context, r Runner, args []string, setup bool, sr *StepRun) {
	start := time.Now()
	d, err := r.Step(ctx, args, !setup)
	sr.WallS = time.Since(start).Seconds()
	sr.Result = d
	var un *Unavailable
	switch {
	case errors.As(err, &un):
		sr.Skipped = "cannot run here: " + un.Reason
	case ctx.Err() != nil || (d != nil && d.Interrupted):
		sr.Interrupted = true
	case err != nil && !measuredWhatItCould(d):
		sr.Error = err.Error()
	case d == nil && !setup:
		sr.Error = "the step wrote no result document"
	}
}

// measuredWhatItCould says whether a failed step's document shows nothing
// wrong but variants that completed nothing.
func measuredWhatItCould(d *result.Document) bool {
	if d == nil || d.Interrupted || len(d.Empty) == 0 {
		return false
	}
	for _, r := range d.Runs {
		if r.Errors > 0 {
			return false
		}
	}
	return true
}

// expand splits a command line into arguments and replaces its
// placeholders; why says why the step cannot run here.
func expand(line string, o Options) (args []string, standin bool, stop func(), why string) {
	for _, word := range strings.Fields(strings.TrimPrefix(line, "dbmeter ")) {
		w, query := placeholder(word)
		n := len(args)
		switch w {
		case "{pg}", "{pg1}", "{pg2}":
			dsns := o.Servers.PG
			if len(dsns) == 0 {
				return nil, false, stop, "no PostgreSQL server given (" + o.Flags.Servers + " postgres://…" + orEnv(o.Servers, "DBMETER_PG_DSN") + ")"
			}
			if w != "{pg}" {
				n := int(w[3] - '0')
				if len(dsns) < n {
					return nil, false, stop, fmt.Sprintf("%s is the PostgreSQL server given %s, and %d was given: give study run one PostgreSQL server per cluster the study compares", w, ordinal(n), len(dsns))
				}
				dsns = dsns[n-1 : n]
			}
			for _, d := range dsns {
				args = append(args, o.Flags.Server, d)
			}
		case "{clickhouse-legacy}":
			d := o.Servers.CHLegacy
			if d == "" {
				return nil, false, stop, "no ClickHouse 18.16 server given (" + o.Flags.Servers + " " + LabelLegacy + "=clickhouse://…" + orEnv(o.Servers, "DBMETER_CLICKHOUSE_LEGACY_DSN") + ")"
			}
			args = append(args, o.Flags.Server, d)
		case "{clickhouse}":
			var dsns []string
			if o.Servers.CHModern != "" {
				dsns = []string{o.Servers.CHModern}
			} else {
				if o.Standin == nil {
					return nil, false, stop, NoModern
				}
				d, s, err := o.Standin()
				if err != nil {
					return nil, false, stop, "no modern ClickHouse server given and the stand-in did not start: " + err.Error()
				}
				dsns, standin, stop = []string{d}, true, s
			}
			args = append(args, o.Flags.Server, dsns[0])
		default:
			args = append(args, word)
		}
		if query != "" {
			for i := n + 1; i < len(args); i += 2 {
				args[i] = withQuery(args[i], query)
			}
		}
	}
	return args, standin, stop, ""
}

// placeholder splits a placeholder word into its name and the DSN
// parameters it carries: {clickhouse-legacy?compress=lz4} is
// {clickhouse-legacy} and compress=lz4. Another word is itself.
func placeholder(word string) (name, query string) {
	if !strings.HasPrefix(word, "{") || !strings.HasSuffix(word, "}") {
		return word, ""
	}
	name, query, _ = strings.Cut(word[1:len(word)-1], "?")
	return "{" + name + "}", query
}

// withQuery adds URL parameters to a DSN.
func withQuery(dsn, query string) string {
	if strings.Contains(dsn, "?") {
		return dsn + "&" + query
	}
	return dsn + "?" + query
}

// CheckSteps parses every step's command lines, both forms, with parse
// (the CLI's own flag parsing, nothing run), placeholders standing for a
// server each (given as f.Server says), and returns one Error per line it
// refuses.
func CheckSteps(s *Study, f Flags, parse func(args []string) error) Errors {
	stand := map[string][]string{
		"{pg}":                {f.Server, "postgres://check@127.0.0.1/check"},
		"{pg1}":               {f.Server, "postgres://check@127.0.0.1/check"},
		"{pg2}":               {f.Server, "postgres://check@127.0.0.1/check"},
		"{clickhouse-legacy}": {f.Server, "clickhouse://127.0.0.1:9000/default"},
		"{clickhouse}":        {f.Server, "clickhouse://127.0.0.1:9000/default"},
	}
	var es Errors
	for i, st := range s.Steps {
		for _, form := range []struct {
			field, line string
			at          int
		}{{"run", st.Run, st.runLine}, {"quick", st.Quick, st.quickLine}} {
			if form.line == "" {
				continue
			}
			var args []string
			for _, w := range strings.Fields(strings.TrimPrefix(form.line, "dbmeter ")) {
				name, query := placeholder(w)
				if d, ok := stand[name]; ok {
					if query != "" {
						d = []string{d[0], withQuery(d[1], query)}
					}
					args = append(args, d...)
				} else {
					args = append(args, w)
				}
			}
			if err := parse(args); err != nil {
				es = append(es, Error{File: s.File, Line: max(form.at, 1), Field: fmt.Sprintf("steps[%d].%s", i, form.field), Msg: err.Error()})
			}
		}
	}
	return es
}

// ordinal names a server by its place among those given.
func ordinal(n int) string {
	if n == 1 {
		return "first"
	}
	return "second"
}

// NoModern says why a step's modern ClickHouse is the stand-in.
const NoModern = "no modern ClickHouse given (to study run, or as DBMETER_CLICKHOUSE_MODERN_DSN, or DBMETER_CLICKHOUSE_DSN unless it is the 18.16 server of DBMETER_CLICKHOUSE_LEGACY_DSN)"

// Write encodes doc as indented JSON.
func Write(w io.Writer, doc *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// ReadDocument reads a study's result document; a file that is not one is
// a usage error.
func ReadDocument(path string) (*Document, *Study, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, usage.Wrap(fmt.Errorf("read %s: %w", path, err))
	}
	var doc Document
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, usage.Wrap(fmt.Errorf("%s: not a study result document: %w", path, err))
	}
	if doc.Schema != Schema {
		return nil, nil, usage.Wrap(fmt.Errorf("%s: schema %q, want %q (a study result document, as study run writes)", path, doc.Schema, Schema))
	}
	if err := doc.Upgrade(); err != nil {
		return nil, nil, usage.Wrap(fmt.Errorf("%s: %w", path, err))
	}
	s, err := Parse(doc.File, []byte(doc.Text))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: the study file it holds: %w", path, err)
	}
	return &doc, s, nil
}

// IsDocument says whether the file at path is a study result document.
func IsDocument(data []byte) bool {
	var head struct {
		Schema string `json:"schema"`
	}
	return json.Unmarshal(data, &head) == nil && head.Schema == Schema
}
