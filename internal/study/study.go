// Package study reads, runs and checks studies: a published benchmark as a
// YAML file holding its dbmeter command lines, the figures it published
// with the environment they came from, the tables that put them beside
// this machine's, and the claims it made, each of which gets a verdict.
//
// YAML through go.yaml.in/yaml/v3 (the YAML organisation's maintained
// continuation of gopkg.in/yaml.v3): its yaml.Node keeps the line of every
// key and value, so validation names file, line and field; it is plain
// text a reader can diff, and tables of numbers read as they were printed.
package study

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dbmeter/dbmeter/internal/result"
)

// Study is one study file.
type Study struct {
	ID     string `yaml:"id"`
	Title  string `yaml:"title"`
	Source string `yaml:"source"`
	// About says what the study measured, in the source's words.
	About string `yaml:"about"`
	// Scaling says what the quick and the full form scale from the
	// source's sizes on this kind of machine, and why.
	Scaling      string        `yaml:"scaling"`
	Environments []Environment `yaml:"environments"`
	Steps        []Step        `yaml:"steps"`
	Tables       []Table       `yaml:"tables"`
	Claims       []Claim       `yaml:"claims"`
	// Deviations are every way the study departs from its source's
	// design, each with what it can move.
	Deviations []Deviation `yaml:"deviations"`
	// NotChecked lists the source's claim sentences no claim encodes,
	// each with why, so that every sentence is accounted for.
	NotChecked []Unchecked `yaml:"not_checked"`

	// File names where the study was read from; Hash is the SHA-256 of
	// its bytes, Text the bytes themselves (a result document carries
	// them so it can be checked again without the file).
	File string `yaml:"-"`
	Hash string `yaml:"-"`
	Text string `yaml:"-"`
}

// Environment is where published figures were measured.
type Environment struct {
	ID          string `yaml:"id"`
	Cores       string `yaml:"cores"`
	Memory      string `yaml:"memory"`
	Disk        string `yaml:"disk"`
	Server      string `yaml:"server"`
	Client      string `yaml:"client"`
	Concurrency string `yaml:"concurrency"`
	Notes       string `yaml:"notes"`
}

// Step is one dbmeter command line of the study, without "dbmeter".
type Step struct {
	ID string `yaml:"id"`
	// Run is the full form; Quick the --quick form (Run when empty).
	Run   string `yaml:"run"`
	Quick string `yaml:"quick"`
	// Why says what the step reproduces and what it scaled.
	Why string `yaml:"why"`
	// Setup marks a step that prepares and writes no result document
	// (pg -i): it runs without --json and its failure stops the study.
	Setup bool `yaml:"setup"`

	// lines are the file lines of Run and Quick.
	runLine, quickLine int
}

// Table is a grid of published figures and the measured figures picked
// from the runs of one step.
type Table struct {
	ID    string `yaml:"id"`
	Title string `yaml:"title"`
	// Step names the step whose runs fill the table; several, comma
	// separated, when each ran one column (seed 002's row counts).
	Step string `yaml:"step"`
	// Rows and Columns name the run field each is chosen by (Fields).
	Rows    string `yaml:"rows"`
	Columns string `yaml:"columns"`
	// Where keeps only the runs whose fields have these values.
	Where map[string]string `yaml:"where"`
	// Figure is the figure of a run each cell shows (Figures).
	Figure string `yaml:"figure"`
	// Unit is the unit of the published values, in which the measured
	// ones are shown too.
	Unit        string `yaml:"unit"`
	Environment string `yaml:"environment"`
	// Measured says what the published figures measured, in the source's
	// words.
	Measured string `yaml:"measured"`
	// Header lists the published column labels, in order.
	Header []string `yaml:"header"`
	// Published maps a row label to its values, one per column; null for
	// a cell the source left empty.
	Published yaml.Node `yaml:"published"`
	// Names maps a published label (of a row or a column) to the value
	// of the run field where the two differ: leveldb → goleveldb.
	Names map[string]string `yaml:"names"`
	// Multiply scales the measured figure before it is shown and
	// compared: 500 turns the time of one INSERT into the time of the
	// source's 500 loops. The published numbers stay as printed.
	Multiply float64 `yaml:"multiply"`
	// Missing is a value the source printed for "no figure" (-1).
	Missing *float64 `yaml:"missing"`
	// NotComparable says why measured figures are printed beside the
	// published ones but never divided by them.
	NotComparable string `yaml:"not_comparable"`
	// Cannot lists row labels that cannot run here, each with the reason.
	Cannot map[string]string `yaml:"cannot_run"`

	rows []Row
}

// Row is one published row.
type Row struct {
	Label  string
	Values []*float64
	line   int
}

// Claim is a checkable statement the source made.
type Claim struct {
	ID string `yaml:"id"`
	// Text is the claim in English: the source's words translated, no
	// stronger and no weaker.
	Text string `yaml:"text"`
	// Quote is the source's own sentence, in its language.
	Quote string `yaml:"quote"`
	// Kind is threshold, ratio, ranking, lowest, highest, close,
	// difference, crossover, ratios or leads.
	Kind string `yaml:"kind"`
	// Cells are [table, row, column] references.
	Cells []Ref `yaml:"cells"`
	// A and B are the cells of a ratio, a close or a difference (A/B,
	// A−B); of a crossover, the [table, row] of the two rows compared
	// column by column (A the one that wins above At); of ratios, the
	// [table, row] of two rows whose ratio A/B is bounded in each of
	// Columns (every column when empty).
	A Ref `yaml:"a"`
	B Ref `yaml:"b"`
	// Above and Below bound every cell (threshold), the ratio or the
	// difference (in the table's unit).
	Above *float64 `yaml:"above"`
	Below *float64 `yaml:"below"`
	// Within is a close claim's band: A/B lies between 1/(1+Within) and
	// 1+Within ("very close": 0.05).
	Within *float64 `yaml:"within"`
	// At is a crossover's point, a column label's number: A is better
	// than B (by the figure's direction) in every column above it and B
	// better than A in every column below it.
	At *float64 `yaml:"at"`
	// Columns are the columns a ratios claim bounds.
	Columns []string `yaml:"columns"`
	// Cell is the one that must be lowest or highest among Cells.
	Cell Ref `yaml:"cell"`
	// Leaders are the cells of a leads claim, each better than every one
	// of Cells by its figure's direction (a higher rate, a lower time).
	Leaders []Ref `yaml:"leaders"`
	// PublishedOnly says why the claim can be judged on the published
	// figures only (what it compares cannot run here).
	PublishedOnly string `yaml:"published_only"`
	// Premise is what the claim assumes of the servers or the data; it
	// is checked from the measured evidence before the claim is.
	Premise *Premise `yaml:"premise"`
	// Premises are further conditions, each checked as Premise is, for a
	// claim that assumes more than one (IO-bound, and on storage that
	// differs between the servers).
	Premises []Premise `yaml:"premises"`
	// Note is what the transcriber adds: where the source's own table
	// disagrees with its text, or what a check leaves out.
	Note string `yaml:"note"`
}

// premises are every condition c holds under: Premise, then Premises.
func (c *Claim) premises() []*Premise {
	var out []*Premise
	if c.Premise != nil {
		out = append(out, c.Premise)
	}
	for i := range c.Premises {
		out = append(out, &c.Premises[i])
	}
	return out
}

// Premise is a condition a claim holds under (IO-bound, two different
// servers), and the measured evidence that shows it here.
type Premise struct {
	// What says the premise in words.
	What string `yaml:"what"`
	// Evidence names the check (Evidences): cache_misses, the share of
	// the cells' block reads that missed the server's buffer cache
	// (pg_stat_database); device_reads, the read IOs the device counted
	// per operation (under a storage profile); different_servers, the
	// cells' runs came from servers of different addresses;
	// different_storage, from servers of different addresses or under
	// different storage profiles; measured_seconds, each cell's runs
	// measured at least Above seconds.
	Evidence string `yaml:"evidence"`
	// Above is the least the evidence must show (cache_misses 0.1 or
	// device_reads 0.5 per operation: IO-bound); Below the most (the data
	// fits in memory).
	Above *float64 `yaml:"above"`
	Below *float64 `yaml:"below"`
	// Cells are the cells whose runs show it; the claim's cells when
	// empty.
	Cells []Ref `yaml:"cells"`
}

// Deviation is one way a study departs from its source's design.
type Deviation struct {
	ID string `yaml:"id"`
	// What differs from the source.
	What string `yaml:"what"`
	// By is "machine" when this machine forces it (2 cores, one disk, no
	// modern ClickHouse) or "file" when the study chooses it, which then
	// needs Why.
	By  string `yaml:"by"`
	Why string `yaml:"why"`
	// Moves lists the tables and claims whose figures or verdicts it can
	// move; a table names every claim over it.
	Moves []string `yaml:"moves"`
}

// Unchecked is a claim sentence of the source that no claim encodes.
type Unchecked struct {
	Quote string `yaml:"quote"`
	Text  string `yaml:"text"`
	Why   string `yaml:"why"`
}

// Ref names one cell: table id, row label, column label.
type Ref []string

func (r Ref) String() string { return strings.Join(r, " / ") }

// StepIDs are the steps whose runs fill the table.
func (t *Table) StepIDs() []string {
	var ids []string
	for _, id := range strings.Split(t.Step, ",") {
		ids = append(ids, strings.TrimSpace(id))
	}
	return ids
}

// Rows are the published rows, in file order.
func (t *Table) PublishedRows() []Row { return t.rows }

// Error is one mistake in a study file.
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Field, e.Msg)
}

// Errors are every mistake found in a file, one a line.
type Errors []Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Parse reads and validates a study file. A file with mistakes returns
// Errors: every mistake found, in one pass, each with its line and field
// (a file that is not YAML at all has just the one), and, when it was
// YAML, the study as read, so that its command lines can be checked in
// the same pass (CheckSteps); it is not a study to run.
func Parse(file string, data []byte) (*Study, error) {
	return parse(file, data, result.Families())
}

// parse is Parse with the families' declarations given.
func parse(file string, data []byte, families []result.FamilyRecord) (*Study, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, Errors{syntaxError(file, data, err)}
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return nil, Errors{{File: file, Line: 1, Msg: "empty study file: want a mapping with id, title, source, steps, tables"}}
	}
	v := validator{file: file, lines: map[string]int{}, consequence: map[string]bool{}, families: families, stepFamily: map[string]string{}}
	v.index(root.Content[0], "")
	v.keys(root.Content[0], reflect.TypeOf(Study{}), "")
	var s Study
	if err := v.typeErrors(root.Content[0].Decode(&s)); err != nil {
		return nil, yamlErrors(file, err)
	}
	sum := sha256.Sum256(data)
	s.File, s.Hash, s.Text = file, hex.EncodeToString(sum[:]), string(data)
	v.study(&s)
	v.dropConsequences()
	if len(v.errs) > 0 {
		return &s, v.errs // the study as read, for CheckSteps to add its own
	}
	return &s, nil
}

// yamlErrors turns the decoder's "line N: message" into file:N lines.
func yamlErrors(file string, err error) error {
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var es Errors
	for _, m := range msgs {
		m = strings.TrimPrefix(m, "yaml: ")
		line := 1
		if n, _ := fmt.Sscanf(m, "line %d:", &line); n == 1 {
			m = strings.TrimSpace(m[strings.Index(m, ":")+1:])
		}
		es = append(es, Error{File: file, Line: line, Msg: m})
	}
	return es
}
