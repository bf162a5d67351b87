package sysinfo

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/dbmeter/dbmeter/internal/result"
)

// WriteVersion prints what `dbmeter version` says: this build (the facts a
// result's "tool" records) and the linked modules whose version changes the
// numbers, or every linked module with all.
func WriteVersion(w io.Writer, all bool) {
	WriteBuild(w, Tool())
	mods := Modules()
	var paths []string
	for p := range mods {
		if all || isClientModule(p) {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		fmt.Fprintf(w, "  %-45s %s\n", p, mods[p])
	}
}

// WriteBuild says which dbmeter t is.
func WriteBuild(w io.Writer, t result.Tool) {
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
	"modernc.org/kv", "modernc.org/lldb",
	"github.com/HdrHistogram/hdrhistogram-go",
}

func isClientModule(path string) bool {
	return slices.ContainsFunc(clientModules, func(p string) bool { return strings.HasPrefix(path, p) })
}
