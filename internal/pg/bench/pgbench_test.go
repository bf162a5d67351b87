package bench

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/pgtest"
	"github.com/dbmeter/dbmeter/internal/pg/script"
)

// The pgbench conformance suite runs each script through the real pgbench
// binary and through dbmeter's Bench against the same server and compares
// what they did: the debug() lines (so every value, type and random draw),
// whether the run failed and why, and table contents.

// run is one side-by-side case.
type run struct {
	scripts  []string // script sources, weight 1 unless a weights entry says
	weights  []int
	clients  int
	threads  int
	perCli   int
	seed     uint64
	mode     driver.QueryMode
	defines  map[string]string
	maxTries int
	driver   string // "": pgx
	ordered  bool   // compare debug lines in order (one client)
	wantFail string
}

type outcome struct {
	processed int64 // transactions that completed
	failures  int64 // transactions that failed (not aborted)
	retried   int64 // transactions tried more than once
	deadlocks int64 // failures on a deadlock
	debug     []string
	tokens    []string
	failed    bool
	msg       string // the failure, for the log
}

func (r run) files(t *testing.T) []string {
	dir := t.TempDir()
	var out []string
	for i, src := range r.scripts {
		p := filepath.Join(dir, fmt.Sprintf("s%d.sql", i))
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func (r run) weight(i int) int {
	if i < len(r.weights) {
		return r.weights[i]
	}
	return 1
}

func debugLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "debug(") {
			out = append(out, l)
		}
	}
	return out
}

// debugTokens splits pgbench's stderr into debug() prefixes and values:
// threads write a prefix and its value with two calls, so with several
// threads lines can interleave; as multisets they still compare.
func debugTokens(s string) []string {
	re := regexp.MustCompile(`debug\(script=\d+,command=\d+\): |(int -?\d+|double \S+|boolean \w+|null)\n`)
	return re.FindAllString(s, -1)
}

func (r run) pgbench(t *testing.T, bin, dsn string) outcome {
	t.Helper()
	args := []string{"-n", "-c", strconv.Itoa(max(r.clients, 1)), "-j", strconv.Itoa(max(r.threads, 1)),
		"-t", strconv.Itoa(max(r.perCli, 1)), "--random-seed", strconv.FormatUint(r.seed, 10), "-M", r.mode.String()}
	for k, v := range r.defines {
		args = append(args, "-D", k+"="+v)
	}
	if r.maxTries != 0 {
		args = append(args, "--max-tries", strconv.Itoa(r.maxTries), "--failures-detailed")
	}
	for i, f := range r.files(t) {
		args = append(args, "-f", fmt.Sprintf("%s@%d", f, r.weight(i)))
	}
	cmd := exec.Command(bin, append(args, dsn)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	processed := int64(-1)
	if m := regexp.MustCompile(`actually processed: (\d+)`).FindStringSubmatch(stdout.String()); m != nil {
		processed, _ = strconv.ParseInt(m[1], 10, 64)
	}
	var failedN, retried int64
	if m := regexp.MustCompile(`number of failed transactions: (\d+)`).FindStringSubmatch(stdout.String()); m != nil {
		failedN, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := regexp.MustCompile(`number of transactions retried: (\d+)`).FindStringSubmatch(stdout.String()); m != nil {
		retried, _ = strconv.ParseInt(m[1], 10, 64)
	}
	var deadlocks int64
	if m := regexp.MustCompile(`number of deadlock failures: (\d+)`).FindStringSubmatch(stdout.String()); m != nil {
		deadlocks, _ = strconv.ParseInt(m[1], 10, 64)
	}
	// pgbench exits 0 after aborting a client at the end of its script;
	// what matters is that it said so.
	aborted := strings.Contains(stderr.String(), "Run was aborted")
	return outcome{processed: processed, failures: failedN, retried: retried, deadlocks: deadlocks, debug: debugLines(stderr.String()), tokens: debugTokens(stderr.String()), failed: err != nil || aborted, msg: stderr.String()}
}

func (r run) dbmeter(t *testing.T, dsn string) outcome {
	t.Helper()
	var ws []Weighted
	var defined []string
	vars := map[string]script.Value{"scale": script.Int(1)}
	for k, v := range r.defines {
		defined = append(defined, k)
		vars[k] = script.Text(v)
	}
	ns := script.NewNames(append(script.Predefined(), defined...)...)
	for i, f := range r.files(t) {
		src, _ := os.ReadFile(f)
		s, err := script.ParseIn(ns, f, string(src))
		if err != nil {
			return outcome{failed: true, msg: err.Error()}
		}
		ws = append(ws, Weighted{Name: filepath.Base(f), Script: s, Weight: r.weight(i)})
	}
	drv, err := driver.Lookup(cmp.Or(r.driver, "pgx"))
	if err != nil {
		t.Fatal(err)
	}
	var debug bytes.Buffer
	b, err := NewBench(Config{Driver: drv, DSN: dsn, Mode: r.mode, Scripts: ws, Vars: vars,
		Seed: r.seed, Clients: max(r.clients, 1), Threads: max(r.threads, 1), Debug: &debug, MaxTries: r.maxTries})
	if err != nil {
		return outcome{failed: true, msg: err.Error()}
	}
	cfg := load.DefaultConfig()
	cfg.Workers, cfg.Duration, cfg.Warmup, cfg.Interval, cfg.Classify = max(r.clients, 1), 0, 0, 0, driver.Classify
	cfg.Count = int64(max(r.clients, 1) * max(r.perCli, 1))
	res, err := load.Run(context.Background(), cfg, b.Ops(), b.NewWorker, nil)
	if err != nil {
		return outcome{failed: true, msg: err.Error()}
	}
	st := res.Stats(-1)
	_, retried := b.Retries()
	return outcome{processed: st.Ops, failures: st.ErrorKinds[driver.KindSerialization], retried: retried, deadlocks: b.Deadlocks(), debug: debugLines(debug.String()), tokens: debugTokens(debug.String()), failed: st.Errors > 0,
		msg: fmt.Sprint(st.ErrorKinds, b.LastError(), b.Aborts())}
}

// compare runs r through both and reports every difference.
func (r run) compare(t *testing.T, bin, dsn string) {
	t.Helper()
	want := r.pgbench(t, bin, dsn)
	got := r.dbmeter(t, dsn)
	if want.failed != got.failed {
		t.Fatalf("pgbench failed=%v (%s), dbmeter failed=%v (%s)", want.failed, strings.TrimSpace(want.msg), got.failed, got.msg)
	}
	if r.wantFail != "" && (!strings.Contains(want.msg, r.wantFail) || !strings.Contains(got.msg, r.wantFail)) {
		t.Errorf("want both to fail with %q:\npgbench: %s\ndbmeter: %s", r.wantFail, want.msg, got.msg)
	}
	if want.processed >= 0 && want.processed != got.processed {
		t.Errorf("transactions processed: pgbench %d, dbmeter %d", want.processed, got.processed)
	}
	wd, gd := want.debug, got.debug
	if !r.ordered {
		wd, gd = want.tokens, got.tokens
		slices.Sort(wd)
		slices.Sort(gd)
	}
	if !slices.Equal(wd, gd) {
		t.Errorf("debug() lines differ\npgbench:\n%s\ndbmeter:\n%s", strings.Join(wd, "\n"), strings.Join(gd, "\n"))
	}
	if len(wd) == 0 && r.wantFail == "" {
		t.Errorf("no debug() line at all: the case checks nothing")
	}
}

const randomScript = `\set r debug(random(1, 100000))
\set e debug(random_exponential(1, 1000, 2.5))
\set g debug(random_gaussian(1, 1000, 4.0))
\set z debug(random_zipfian(1, 1000, 1.5))
\set p debug(permute(:r, 100000))
\set p2 debug(permute(:r, 1000, 5432))
\set h debug(hash(:r))
\set h2 debug(hash_fnv1a(:r, 5))
\set h3 debug(hash_murmur2(:r, :client_id))
\set w debug(random(-9223372036854775806, 0))
\set d debug(:default_seed)
\set s debug(:random_seed)
\set c debug(:client_id)
`

const exprScript = `\set a debug(1 + 2 * 3 - 4 / 3 % 2)
\set b debug(7 / 2.0 + 1e3 - .5)
\set c debug(-7 / 2 + -7 % 3 + mod(17, 5))
\set d debug(5 & 3 | 8 # 1)
\set e debug(~5 + 2)
\set f debug(1 << 62 >> 61)
\set g debug(1 = 1 and 2 <> 3 or 2 != 2)
\set h debug(3 > 2.5 and not 2 >= 3 and 1 <= 1 and 0 < 1)
\set i debug(null is null)
\set j debug(1 isnull or 2 notnull)
\set k debug(true is not false)
\set l debug(1 + null)
\set m debug(null and false)
\set n debug(false and null)
\set o debug(case when 1 > 2 then 1 when 2 > 1 then 2.5 else 3 end)
\set p debug(case when false then 1 end)
\set q debug(abs(-4) + abs(-4.5))
\set r debug(greatest(1, 2.5, 2) + least(3, 1, 2))
\set s debug(int(2.5) + int(3.5) + int(-2.5))
\set t debug(double(3) / 7)
\set u debug(sqrt(2) + exp(1) + ln(10) + pi())
\set v debug(pow(2, 10) + power(2, 0.5))
\set w debug(1e20)
\set x debug(-9223372036854775808)
\set y debug(:dt)
\set z debug(:dn)
\set aa debug(:dd * 2)
\set ab debug(:df or false)
\set ac debug(1.0 / 3)
\set ad debug(123456789012.0 * 1000000)
\set ae debug(hash(0) + hash_fnv1a(0, 0) / 2)
\set af debug(2 > 1 is true)
\set ag debug(1.5 % 2)
\set ah debug(-(1))
\set ai debug(- 2.5)
`

func TestPgbenchConformance(t *testing.T) {
	bin := pgtest.Pgbench(t)
	dsn := pgtest.InitDB(t)
	cases := map[string]run{
		"random seed 5432":           {scripts: []string{randomScript}, perCli: 4, seed: 5432, ordered: true},
		"random seed 0":              {scripts: []string{randomScript}, perCli: 2, seed: 0, ordered: true},
		"random seed max":            {scripts: []string{randomScript}, perCli: 2, seed: 18446744073709551615, ordered: true},
		"random 3 clients 1 thread":  {scripts: []string{randomScript}, clients: 3, threads: 1, perCli: 3, seed: 5432},
		"random 3 clients 2 threads": {scripts: []string{randomScript}, clients: 3, threads: 2, perCli: 3, seed: 77},
		"script weights": {scripts: []string{`\set x debug(random(1, 10))`, `\set y debug(random(100, 1000))`},
			weights: []int{1, 3}, clients: 2, threads: 2, perCli: 20, seed: 5432},
		"expressions": {scripts: []string{exprScript}, perCli: 1, ordered: true,
			defines: map[string]string{"dt": "yes", "dn": "NULL", "dd": "2.5", "df": "of"}},
		"if elif else": {scripts: []string{`\set r random(1, 4)
\if :r = 1
\set x debug(100 + random(1, 10))
\elif :r = 2
\set x debug(200)
\if random(0, 1)
\set y debug(210)
\else
\set y debug(220)
\endif
\elif :r = 3
\set x debug(300)
\else
\set x debug(400 + :r)
\endif
\set z debug(:r)
`}, perCli: 20, seed: 9, ordered: true},
		"sleep counted":                 {scripts: []string{"\\set us random(1, 50)\n\\sleep :us us\n\\sleep 1 ms\n\\set x debug(:us)\n"}, perCli: 3, seed: 3, ordered: true},
		"sleep unit against the number": {scripts: []string{"\\sleep 2ms\n\\sleep 5US\n\\sleep -\n\\set x debug(1)\n"}, perCli: 2, ordered: true},
		"sleep unknown unit":            {scripts: []string{"\\sleep 2msx\n\\set x debug(1)\n"}, wantFail: "unrecognized time unit, must be us, ms or s"},
		"setshell and shell":            {scripts: []string{"\\setshell x echo 42\n\\shell true\n\\set y debug(:x + 1)\n\\setshell z echo :x\n\\set w debug(:z)\n"}, perCli: 1, ordered: true},
		"zipfian bad parameter":         {scripts: []string{"\\set x debug(random_zipfian(1, 10, 0.5))\n"}, wantFail: "zipfian parameter must be in range [1.001, 1000]"},
		"division by zero":              {scripts: []string{"\\set x debug(1)\n\\set y 1 / 0\n"}, wantFail: "division by zero"},
		"random range too large":        {scripts: []string{"\\set x random(-9223372036854775808, 9223372036854775807)\n"}, wantFail: "random range is too large"},
		"bigint overflow":               {scripts: []string{"\\set x 9223372036854775807 + 1\n"}, wantFail: "bigint add out of range"},
		"coercion":                      {scripts: []string{"\\set x not 1\n"}, wantFail: "cannot coerce int to boolean"},
		"undefined variable":            {scripts: []string{"\\set x :nosuch + 1\n"}, wantFail: `undefined variable "nosuch"`},
	}
	for _, mode := range driver.Modes() {
		cases["gset aset "+mode.String()] = run{mode: mode, perCli: 2, seed: 1, ordered: true, scripts: []string{`\set a random(1, 1000)
SELECT :a AS one, 2.5 AS two, true AS four \gset
\set x debug(:one + :two)
\set z debug(:four)
SELECT :a + 1 AS v \gset p_
\set w debug(:p_v)
SELECT 7 AS s, 8 AS t \aset
\set u debug(:s * :t)
SELECT 1 AS none WHERE false \aset
`}}
	}
	for _, mode := range []driver.QueryMode{driver.ModeExtended, driver.ModePrepared} {
		cases["pipeline "+mode.String()] = run{mode: mode, clients: 2, perCli: 5, seed: 11, scripts: []string{`\set aid random(1, 100000)
\set delta random(-5000, 5000)
BEGIN;
\startpipeline
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :aid, :delta, CURRENT_TIMESTAMP);
\endpipeline
END;
\set x debug(:aid * 100000 + :delta)
`}}
	}
	cases["pipeline error"] = run{mode: driver.ModeExtended, scripts: []string{"\\set x debug(1)\nBEGIN;\n\\startpipeline\nSELECT 1/0;\nSELECT 2;\n\\endpipeline\nEND;\n"}, wantFail: "division by zero"}
	cases["variables shared by scripts"] = run{scripts: []string{"\\set a random(1, 1000)\n\\set b debug(:a)\n", "\\set c debug(:a + 1)\n"},
		clients: 1, perCli: 20, seed: 21, ordered: true}
	for _, mode := range driver.Modes() {
		// pgbench leaves the reference in simple mode's text and sends
		// NULL in the other modes.
		c := run{mode: mode, scripts: []string{"SELECT :nope::int AS v \\gset\n\\set x debug(1)\n"}}
		if mode == driver.ModeSimple {
			c.wantFail = `syntax error at or near ":"`
		}
		cases["undefined SQL variable "+mode.String()] = c
	}
	// pgbench finds :name inside quotes and dollar quotes too: simple mode
	// substitutes the value, the others bind a parameter the server does
	// not expect.
	for _, mode := range driver.Modes() {
		c := run{mode: mode, perCli: 1, ordered: true, scripts: []string{"\\set x 5\nSELECT ':x' AS v, $$:x$$ AS w \\gset\n\\set y debug(:v + :w)\n"}}
		if mode != driver.ModeSimple {
			c.wantFail = "bind message supplies 2 parameters"
		}
		cases["variables inside quotes "+mode.String()] = c
	}
	cases["compound simple"] = run{perCli: 1, ordered: true, scripts: []string{`SELECT 1 AS a \; SELECT 2 AS b \aset
\set x debug(:a + :b)
SELECT 3 AS c \; SELECT 4 AS d \gset
\set y debug(:d)
`}}
	// pgbench 15 stores a NULL column as an empty string, which no
	// expression can read.
	cases["gset null"] = run{scripts: []string{"SELECT 1 AS a, NULL AS b \\gset\n\\set x debug(:a)\n\\set y debug(:b)\n"}}
	cases["end inside a transaction"] = run{clients: 2, perCli: 3, scripts: []string{"BEGIN;\n\\set x debug(random(1, 9))\nSELECT 1;\n"},
		wantFail: "end of script reached without completing the last transaction"}
	// pgbench stores every column of a \gset, and a column no variable
	// can be named after aborts the client.
	cases["gset unnamed column"] = run{scripts: []string{"SELECT 1 \\gset\n\\set x debug(1)\n"}, wantFail: `gset: invalid variable name: "?column?"`}
	cases["gset bad column name"] = run{scripts: []string{"SELECT 1 AS \"bad name!\" \\gset\n\\set x debug(1)\n"}, wantFail: `gset: invalid variable name: "bad name!"`}
	cases["gset wants one row"] = run{scripts: []string{"SELECT 1 AS a UNION ALL SELECT 2 \\gset\n"}, wantFail: "expected one row, got 2"}
	// The cases that go through SQL also run through the database/sql
	// drivers (pipelines are pgx's alone).
	for _, name := range slices.Collect(maps.Keys(cases)) {
		c := cases[name]
		if strings.Contains(name, "pipeline") || !strings.Contains(strings.Join(c.scripts, ""), "SELECT") {
			continue
		}
		for _, d := range []string{"pgx-stdlib", "pq"} {
			if d == "pq" && c.mode == driver.ModePrepared && strings.HasPrefix(name, "variables inside quotes") {
				// database/sql counts lib/pq's arguments itself and refuses
				// before the server can: the same failure in other words.
				continue
			}
			c.driver = d
			cases[name+" "+d] = c
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range cases {
			if !yield(k) {
				return
			}
		}
	})
	for _, name := range names {
		t.Run(name, func(t *testing.T) { cases[name].compare(t, bin, dsn) })
	}
}

// balance reads one account's balance.
func balance(t *testing.T, dsn string, aid int) int64 {
	t.Helper()
	ctx := context.Background()
	conn := pgtest.Conn(t, dsn)
	defer conn.Close(ctx)
	var b int64
	if err := conn.QueryRow(ctx, "SELECT abalance FROM pgbench_accounts WHERE aid = $1", aid).Scan(&b); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPgbenchRetries: clients that collide under REPEATABLE READ get
// serialization failures; with --max-tries both pgbench and dbmeter retry
// them until every transaction commits exactly once, and with one try both
// count them as failed.
func TestPgbenchRetries(t *testing.T) {
	bin := pgtest.Pgbench(t)
	dsn := pgtest.InitDB(t)
	const src = `BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT abalance FROM pgbench_accounts WHERE aid = 1;
\sleep 2 ms
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 1;
END;
`
	for _, tc := range []struct {
		name     string
		maxTries int
	}{{"retried", 1000}, {"one try", 1}} {
		t.Run(tc.name, func(t *testing.T) {
			r := run{scripts: []string{src}, clients: 4, perCli: 10, maxTries: tc.maxTries}
			for _, side := range []string{"pgbench", "dbmeter"} {
				before := balance(t, dsn, 1)
				var o outcome
				if side == "pgbench" {
					o = r.pgbench(t, bin, dsn)
				} else {
					o = r.dbmeter(t, dsn)
				}
				moved := balance(t, dsn, 1) - before
				t.Logf("%s: processed %d, failed %d, retried %d, balance moved %d", side, o.processed, o.failures, o.retried, moved)
				if moved != o.processed {
					t.Errorf("%s: the balance moved %d for %d processed transactions", side, moved, o.processed)
				}
				if o.processed+o.failures != 40 {
					t.Errorf("%s: %d processed + %d failed, want 40", side, o.processed, o.failures)
				}
				if tc.maxTries > 1 && (o.failures != 0 || o.retried == 0) {
					t.Errorf("%s: with retries, want no failure and some retried transactions", side)
				}
				if tc.maxTries == 1 && (o.failures == 0 || o.retried != 0) {
					t.Errorf("%s: with one try, want failures and nothing retried", side)
				}
			}
		})
	}
}

// TestPgbenchDeadlocks: two clients that lock two rows in opposite orders
// deadlock; both pgbench and dbmeter count the failures as deadlocks, and
// with retries every transaction gets through.
func TestPgbenchDeadlocks(t *testing.T) {
	bin := pgtest.Pgbench(t)
	dsn := pgtest.InitDB(t)
	const src = `BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 1 + :client_id;
\sleep 30 ms
UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = 2 - :client_id;
END;
`
	for _, tries := range []int{1, 20} {
		r := run{scripts: []string{src}, clients: 2, perCli: 2, maxTries: tries}
		for _, side := range []string{"pgbench", "dbmeter"} {
			var o outcome
			if side == "pgbench" {
				o = r.pgbench(t, bin, dsn)
			} else {
				o = r.dbmeter(t, dsn)
			}
			t.Logf("--max-tries %d, %s: processed %d, failed %d (deadlocks %d), retried %d", tries, side, o.processed, o.failures, o.deadlocks, o.retried)
			if o.processed+o.failures != 4 {
				t.Errorf("%s: %d processed + %d failed, want 4", side, o.processed, o.failures)
			}
			if tries == 1 && (o.deadlocks == 0 || o.deadlocks != o.failures) {
				t.Errorf("%s: with one try, want the failures counted as deadlocks", side)
			}
			if tries > 1 && (o.failures != 0 || o.retried == 0) {
				t.Errorf("%s: with retries, want every transaction through after some retries", side)
			}
		}
	}
}

// TestPgbenchStaticErrors: scripts pgbench refuses before connecting are
// refused by dbmeter's parser too.
func TestPgbenchStaticErrors(t *testing.T) {
	bin := pgtest.Pgbench(t)
	for _, src := range []string{
		"\\set x nosuch(1)\n",
		"\\set x random(1)\n",
		"\\set x 1 +\n",
		"\\set x 9223372036854775808\n",
		"\\set x 1 < 2 < 3\n",
		"\\sleep 1 hour\n",
		"\\sleep\n",
		"\\if 1\nSELECT 1;\n",
		"\\endif\n",
		"\\if 1\n\\else\n\\else\n\\endif\n",
		"\\gset\n",
		"\\nosuch\n",
		"\\setshell x\n",
	} {
		t.Run(src, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "bad.sql")
			os.WriteFile(p, []byte(src), 0o644)
			// No server: pgbench must fail while reading the script.
			cmd := exec.Command(bin, "-n", "-t", "1", "-f", p, "-h", "127.0.0.1", "-p", "1")
			out, err := cmd.CombinedOutput()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 1 || strings.Contains(string(out), "connection") {
				t.Fatalf("pgbench did not refuse the script statically: %v\n%s", err, out)
			}
			if _, err := script.Parse(p, src, script.Predefined()); err == nil {
				t.Errorf("pgbench refuses it (%s) but dbmeter parses it", strings.TrimSpace(string(out)))
			}
		})
	}
}

// tableDigest sums what a TPC-B run leaves behind, in ways that depend on
// which rows each transaction touched with which delta.
func tableDigest(t *testing.T, dsn string) string {
	t.Helper()
	ctx := context.Background()
	conn := pgtest.Conn(t, dsn)
	defer conn.Close(ctx)
	var h, d, ad, td, bd, ab, tb, bb int64
	err := conn.QueryRow(ctx, `SELECT count(*), coalesce(sum(delta), 0), coalesce(sum(aid::bigint * delta), 0),
		coalesce(sum(tid * delta), 0), coalesce(sum(bid * delta), 0),
		(SELECT sum(abalance::bigint * aid) FROM pgbench_accounts), (SELECT sum(tbalance * tid) FROM pgbench_tellers),
		(SELECT sum(bbalance * bid) FROM pgbench_branches) FROM pgbench_history`).Scan(&h, &d, &ad, &td, &bd, &ab, &tb, &bb)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("history rows %d, sum(delta) %d, sum(aid*delta) %d, sum(tid*delta) %d, sum(bid*delta) %d, sum(abalance*aid) %d, sum(tbalance*tid) %d, sum(bbalance*bid) %d",
		h, d, ad, td, bd, ab, tb, bb)
}

func resetTables(t *testing.T, dsn string) {
	t.Helper()
	ctx := context.Background()
	conn := pgtest.Conn(t, dsn)
	defer conn.Close(ctx)
	for _, q := range []string{"TRUNCATE pgbench_history", "UPDATE pgbench_accounts SET abalance = 0 WHERE abalance <> 0",
		"UPDATE pgbench_tellers SET tbalance = 0", "UPDATE pgbench_branches SET bbalance = 0"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPgbenchSameRows: with the same --random-seed, a TPC-B run of dbmeter
// and one of pgbench touch the same rows with the same deltas, so the
// tables end up identical.
func TestPgbenchSameRows(t *testing.T) {
	bin := pgtest.Pgbench(t)
	dsn := pgtest.InitDB(t)
	const tpcb = `\set aid random(1, 100000 * :scale)
\set bid random(1, 1 * :scale)
\set tid random(1, 10 * :scale)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
`
	for _, mode := range driver.Modes() {
		t.Run(mode.String(), func(t *testing.T) {
			r := run{scripts: []string{tpcb}, clients: 3, threads: 2, perCli: 40, seed: 5432, mode: mode}
			resetTables(t, dsn)
			if o := r.pgbench(t, bin, dsn); o.failed || o.processed != 120 {
				t.Fatalf("pgbench: %+v", o)
			}
			want := tableDigest(t, dsn)
			resetTables(t, dsn)
			if o := r.dbmeter(t, dsn); o.failed || o.processed != 120 {
				t.Fatalf("dbmeter: %+v", o)
			}
			if got := tableDigest(t, dsn); got != want {
				t.Errorf("tables after the same seed differ:\npgbench: %s\ndbmeter: %s", want, got)
			}
			resetTables(t, dsn)
			r.seed = 5433
			r.dbmeter(t, dsn)
			if other := tableDigest(t, dsn); other == want {
				t.Errorf("another seed left the same tables: the digest cannot tell runs apart")
			}
		})
	}
}

// logShape reduces a -l line to its shape: the number of fields and which
// are numbers, so pgbench's and dbmeter's logs compare although times
// differ.
func logShape(line string) string {
	var b strings.Builder
	for _, f := range strings.Fields(line) {
		if _, err := strconv.ParseInt(f, 10, 64); err == nil {
			b.WriteString("N ")
		} else {
			b.WriteString(f + " ")
		}
	}
	return strings.TrimSpace(b.String())
}

func logShapes(t *testing.T, glob string) map[string]int {
	t.Helper()
	files, _ := filepath.Glob(glob)
	shapes := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// FieldsFunc: a thread whose clients ran nothing (at a low
		// rate one open-loop worker can take every arrival) wrote an empty
		// file, which has no lines.
		for _, l := range strings.FieldsFunc(string(data), func(r rune) bool { return r == '\n' }) {
			shapes[logShape(l)]++
		}
	}
	return shapes
}

// TestPgbenchLogFormat: -l lines (per transaction, with retries, and
// aggregated) have pgbench 15's fields, and per-transaction logs have one
// line per transaction, in one file per thread.
func TestPgbenchLogFormat(t *testing.T) {
	bin := pgtest.Pgbench(t)
	dsn := pgtest.InitDB(t)
	for _, tc := range []struct {
		name     string
		maxTries int
		agg      int
		rate     float64
	}{{"transactions", 1, 0, 0}, {"transactions with retries", 3, 0, 0}, {"aggregates", 1, 1, 0},
		{"transactions at a rate", 1, 0, 50}, {"aggregates at a rate", 1, 1, 50}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			limit := []string{"-t", "5"}
			if tc.agg > 0 {
				limit = []string{"-T", "2"}
			}
			args := []string{"-n", "-c", "2", "-j", "2", limit[0], limit[1], "-l", "--log-prefix", filepath.Join(dir, "pgb"), "--max-tries", strconv.Itoa(tc.maxTries), "-b", "select-only"}
			if tc.agg > 0 {
				args = append(args, "--aggregate-interval", strconv.Itoa(tc.agg))
			}
			if tc.rate > 0 {
				args = append(args, "-R", strconv.FormatFloat(tc.rate, 'f', -1, 64))
			}
			if out, err := exec.Command(bin, append(args, dsn)...).CombinedOutput(); err != nil {
				t.Fatalf("pgbench: %v\n%s", err, out)
			}
			_, sel, _ := script.Builtin("select-only", nil)
			drv, _ := driver.Lookup("pgx")
			lg := &TxLog{Aggregate: time.Duration(tc.agg) * time.Second, Open: func(th int) (io.WriteCloser, error) {
				return os.Create(filepath.Join(dir, fmt.Sprintf("dbm.%d.%d", 1, th)))
			}}
			b, err := NewBench(Config{Driver: drv, DSN: dsn, Scripts: []Weighted{{Name: "select-only", Script: sel, Weight: 1}},
				Vars: map[string]script.Value{"scale": script.Int(1)}, Clients: 2, Threads: 2, MaxTries: tc.maxTries, Log: lg, Throttled: tc.rate > 0})
			if err != nil {
				t.Fatal(err)
			}
			cfg := load.DefaultConfig()
			cfg.Workers, cfg.Duration, cfg.Count, cfg.Warmup, cfg.Interval = 2, 0, 10, 0, 0
			if tc.agg > 0 {
				cfg.Duration, cfg.Count = 2*time.Second, 0
			}
			if tc.rate > 0 {
				cfg.Rate, cfg.MaxInFlight, cfg.Queue = tc.rate, 2, RateQueue(tc.rate)
			}
			if _, err := load.Run(context.Background(), cfg, b.Ops(), b.NewWorker, nil); err != nil {
				t.Fatal(err)
			}
			if err := b.CloseLogs(); err != nil {
				t.Fatal(err)
			}
			want, got := logShapes(t, filepath.Join(dir, "pgb*")), logShapes(t, filepath.Join(dir, "dbm*"))
			if tc.agg > 0 {
				// How many intervals the runs span depends on timing; the
				// shape of each line does not.
				for k := range want {
					want[k] = 1
				}
				for k := range got {
					got[k] = 1
				}
			}
			if fmt.Sprint(want) != fmt.Sprint(got) {
				t.Errorf("log lines differ in shape:\npgbench: %v\ndbmeter: %v", want, got)
			}
			if files, _ := filepath.Glob(filepath.Join(dir, "dbm*")); len(files) != 2 {
				t.Errorf("%d log files, want one per thread", len(files))
			}
		})
	}
}
