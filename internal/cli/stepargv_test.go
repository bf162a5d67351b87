package cli

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbmeter/dbmeter/internal/servertest"
	"github.com/dbmeter/dbmeter/internal/study"
)

// A study step's servers are not on its command line, which every user of
// the machine can read (ps, /proc/PID/cmdline), though its DSN carries a
// password: while study run runs two pg steps against a server whose DSN
// has one, no process it starts shows the password in its command line,
// and the steps still reach the server (through their environment).
func TestStudyStepServersNotInArgv(t *testing.T) {
	dsn := servertest.PostgresDB(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pw, _ := u.User.Password()
	if pw == "" {
		t.Skip("DBMETER_PG_DSN carries no password to look for")
	}
	file := filepath.Join(t.TempDir(), "argv.yaml")
	yaml := "id: argvtest\ntitle: servers out of the command line\nsource: dbmeter's own test\nsteps:\n" +
		"  - id: init\n    run: pg {pg} -i -s 1 -q\n    setup: true\n" +
		"  - id: select\n    run: pg {pg} -S -c 1 -T 1 --warmup 0s\n"
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	seen := map[int]string{} // the study's children: PID → command line
	var mu sync.Mutex
	done, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		for {
			for pid, cmdline := range children(os.Getpid()) {
				mu.Lock()
				seen[pid] = cmdline
				mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	out := filepath.Join(t.TempDir(), "study.json")
	code, stdout, stderr := run(t, "study", "run", file, "--dsn", dsn, "--json", out)
	close(done)
	<-watched
	if code != 0 {
		t.Fatalf("study run: exit %d\n%s\n%s", code, stderr, stdout)
	}
	steps := 0
	for pid, cmdline := range seen {
		if strings.Contains(cmdline, pw) {
			t.Errorf("step process %d has the server's password on its command line: %s", pid, cmdline)
		}
		if strings.Contains(cmdline, " pg ") {
			steps++
		}
	}
	if steps == 0 {
		t.Fatalf("saw no step's process among the study's children (%d seen): nothing was checked", len(seen))
	}
	doc, _, err := study.ReadDocument(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range doc.Steps {
		if st.Error != "" || st.Skipped != "" {
			t.Errorf("step %s did not reach the server: error %q, skipped %q", st.ID, st.Error, st.Skipped)
		}
	}
}

// children are the processes whose parent is ppid, each with its command
// line (its arguments joined by spaces), as /proc shows them to every user.
func children(ppid int) map[int]string {
	out := map[int]string{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(ppid) {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || len(cmdline) == 0 {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(d))
		out[pid] = string(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
	}
	return out
}
