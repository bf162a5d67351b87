package cli

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbmeter/dbmeter/internal/result"
	"github.com/dbmeter/dbmeter/internal/sysinfo"
)

func newVersionCmd(env Env) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print dbmeter's version and the versions of the clients and engines it links",
		Args:  noArgs,
	}
	cmd.Flags().BoolVar(&all, "all", false, "list every linked module, not only clients and engines")
	cmd.RunE = runE(func(*cobra.Command, []string) error {
		printBuild(env.Stdout, sysinfo.Tool())
		mods := sysinfo.Modules()
		paths := make([]string, 0, len(mods))
		for p := range mods {
			if all || isClientModule(p) {
				paths = append(paths, p)
			}
		}
		sort.Strings(paths)
		for _, p := range paths {
			fmt.Fprintf(env.Stdout, "  %-45s %s\n", p, mods[p])
		}
		return nil
	})
	return cmd
}

// printBuild says which dbmeter this is, with the same facts a result's
// "tool" records.
func printBuild(w io.Writer, t result.Tool) {
	tags := "no build tags"
	if len(t.Tags) > 0 {
		tags = "tags " + strings.Join(t.Tags, ",")
	}
	fmt.Fprintf(w, "dbmeter %s (%s %s/%s, %s)\n", t.Version, t.Go, runtime.GOOS, runtime.GOARCH, tags)
	switch {
	case t.Revision != "":
		state := "clean checkout"
		if t.Modified {
			state = "with uncommitted changes"
		}
		fmt.Fprintf(w, "  commit %s %s, %s\n", t.Revision, t.RevisionTime, state)
	case t.Version == "devel":
		fmt.Fprintln(w, "  no VCS stamp (go run, go test, -buildvcs=false or a linked git worktree): results will not say which commit made them; build with `make build` in a clone")
	}
}

// clientModules are the prefixes of modules whose version changes the
// numbers: drivers, clients and engines.
var clientModules = []string{
	"github.com/jackc/pgx", "github.com/lib/pq", "github.com/ClickHouse/", "github.com/jmoiron/sqlx", "gorm.io/",
	"github.com/dgraph-io/badger", "go.etcd.io/bbolt", "github.com/boltdb/bolt", "github.com/syndtr/goleveldb",
	"github.com/cockroachdb/pebble", "github.com/linxGnu/grocksdb", "github.com/tidwall/buntdb", "github.com/google/btree",
	"github.com/HdrHistogram/hdrhistogram-go",
}

func isClientModule(path string) bool {
	for _, p := range clientModules {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}
