package bench

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/dbmeter/dbmeter/internal/load"
	"github.com/dbmeter/dbmeter/internal/pg/driver"
	"github.com/dbmeter/dbmeter/internal/pg/script"
)

// store runs an SQL command followed by \gset or \aset and assigns its
// result columns to variables, with pgbench's rules: \gset wants exactly
// one row from the last result; \aset takes the first row of every result
// and ignores empty ones.
func (c *Client) store(ctx context.Context, i, j int, cmd *script.Command, st *driver.Stmt, env *script.Env, out *load.Outcome) error {
	w := c.b.cfg.Scripts[i]
	f, ok := c.sess.(driver.Fetcher)
	if !ok {
		return load.WithKind(fmt.Errorf("%s line %d: this driver cannot return values for \\gset", w.Name, cmd.Line), load.KindOther)
	}
	results, err := f.Fetch(c.qctx, st, c.args...)
	if err != nil {
		return c.fail(ctx, i, err)
	}
	for k, r := range results {
		out.Rows += int64(len(r.Rows))
		last := k == len(results)-1
		if cmd.Store == script.StoreGset && !last {
			continue
		}
		if cmd.Store == script.StoreGset && len(r.Rows) != 1 {
			return &abortError{msg: fmt.Sprintf("client %d aborted in command %d (SQL) of script %d", c.id, j, i),
				err: fmt.Errorf("%s line %d: expected one row, got %d", w.Name, cmd.Line, len(r.Rows))}
		}
		if len(r.Rows) == 0 {
			continue
		}
		for col, name := range r.Columns {
			// pgbench stores every column, and a name no variable can
			// have ("?column?" of SELECT 1) aborts the client.
			if !script.ValidName(cmd.Prefix + name) {
				return &abortError{msg: fmt.Sprintf("client %d aborted in command %d (SQL) of script %d", c.id, j, i),
					err: fmt.Errorf("%s line %d: %s: invalid variable name: %q", w.Name, cmd.Line, cmd.Store, cmd.Prefix+name)}
			}
			slot := w.Script.Slot(cmd.Prefix + name)
			if slot < 0 {
				continue // no command reads it
			}
			// pgbench 15 stores libpq's text, "" for NULL.
			v := ""
			if p := r.Rows[0][col]; p != nil {
				v = *p
			}
			env.Vars[slot] = script.Text(v)
		}
	}
	return nil
}

// runShell runs \shell or \setshell through /bin/sh, as pgbench's system()
// and popen() do; \setshell stores the integer the command prints.
func runShell(ctx context.Context, cmd *script.Command, vars script.Vars) error {
	words, err := cmd.ShellWords(vars)
	if err != nil {
		return err
	}
	line := strings.Join(words, " ")
	sh := exec.CommandContext(ctx, "/bin/sh", "-c", line)
	if cmd.Kind == script.KindShell {
		if err := sh.Run(); err != nil {
			return fmt.Errorf("line %d: %s: could not launch shell command", cmd.Line, words[0])
		}
		return nil
	}
	outb, err := sh.Output()
	if err != nil && len(outb) == 0 {
		return fmt.Errorf("line %d: setshell: could not read result of shell command", cmd.Line)
	}
	res, _, _ := strings.Cut(string(outb), "\n")
	v, perr := strconv.ParseInt(strings.TrimSpace(res), 10, 32)
	if perr != nil {
		return fmt.Errorf("line %d: setshell: shell command must return an integer (not %q)", cmd.Line, res)
	}
	cmd.SetInt(vars, v)
	return nil
}
