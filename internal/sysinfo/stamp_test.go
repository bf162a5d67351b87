package sysinfo_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/dbmeter/dbmeter/internal/servertest"

	"github.com/dbmeter/dbmeter/internal/result"
)

// `make build` stamps the commit into bin/dbmeter, and -dirty when the
// checkout has uncommitted changes, even with GOFLAGS=-buildvcs=false in
// the environment; in a linked git worktree, where Go cannot see the
// repository, it says "devel" rather than name a wrong commit. go test
// binaries carry no stamp, so this builds real ones, from a copy of this
// source tree committed to a fresh repository: the code under test is the
// code on disk, committed or not.
func TestMakeBuildStampsTheCommit(t *testing.T) {
	servertest.E2E(t, "copies the tree to a fresh repository and runs make build there")
	for _, tool := range []string{"git", "make", "go"} {
		servertest.Tool(t, tool, "make build stamps the commit git reports")
	}
	repo := stampDir(t)
	copyTree(t, "../..", repo)
	// The Debian packages are the caller's business (make test installs
	// them first); this build needs none, since it leaves rocksdb out.
	if err := os.WriteFile(filepath.Join(repo, "scripts", "deps.sh"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@localhost", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(repo, "init", "-q")
	if top := git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir"); top != filepath.Join(repo, ".git") {
		t.Fatalf("the copy's repository is %s, not its own: refusing to commit there", top)
	}
	git(repo, "add", "-A")
	git(repo, "commit", "-q", "-m", "stamp test")
	rev := git(repo, "rev-parse", "HEAD")

	clean := makeBuild(t, repo)
	want := result.Tool{Name: "dbmeter", Version: rev[:12], Revision: rev, Go: clean.Go, Tags: []string{"stamptest"}}
	if clean.Version != want.Version || clean.Revision != want.Revision || clean.Modified || strings.Join(clean.Tags, ",") != "stamptest" || clean.RevisionTime == "" {
		t.Errorf("clean checkout: got tool %+v, want %+v with a revision_time", clean, want)
	}

	if err := os.WriteFile(filepath.Join(repo, "README.md"), []byte("a local change\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dirty := makeBuild(t, repo)
	if dirty.Version != rev[:12]+"-dirty" || dirty.Revision != rev || !dirty.Modified {
		t.Errorf("checkout with uncommitted changes: got tool %+v, want version %s-dirty, revision %s, modified", dirty, rev[:12], rev)
	}

	// In a linked worktree nested in the checkout, Go would stamp the
	// checkout's commit, not the worktree's: make must turn stamping off
	// and say why. A dry run shows the decision without a third build.
	wt := filepath.Join(repo, "wt")
	git(repo, "worktree", "add", "-q", "-b", "other", wt)
	cmd := exec.Command("make", "-n", "build")
	cmd.Dir = wt
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n build in a worktree: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "build -buildvcs=false") || !strings.Contains(string(out), "linked git worktree") {
		t.Errorf("make build in a linked worktree must build with -buildvcs=false and say why; it would run:\n%s", out)
	}
}

// stampDir is the directory the copy is built in, empty: the same path on
// every run (one per user), because go's build cache keys a package by its
// directory too: in a new temporary directory every run compiled each of
// the tree's packages again (50-80 s of the test on 2 cores); here a run
// finds those the last one compiled, and compiles what changed since. A
// lock keeps two runs at once (two checkouts' make test) out of each
// other's copy; the copy is removed at the end.
func stampDir(t *testing.T) string {
	t.Helper()
	base := filepath.Join(os.TempDir(), fmt.Sprintf("dbmeter-stamptest-%d", os.Getuid()))
	lock, err := os.OpenFile(base+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		lock.Close()
		t.Fatalf("lock %s: %v", lock.Name(), err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(base); err != nil {
			t.Errorf("remove the copy: %v", err)
		}
		lock.Close() // releases the lock
	})
	if err := os.RemoveAll(base); err != nil {
		t.Fatalf("remove the last run's copy: %v", err)
	}
	return filepath.Join(base, "dbmeter")
}

// makeBuild runs `make build` in dir, then bin/dbmeter, and returns the
// tool its result document records, after checking `dbmeter version`
// prints the same version.
func makeBuild(t *testing.T, dir string) result.Tool {
	t.Helper()
	cmd := exec.Command("make", "-s", "build", "TAGS=stamptest")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	bin := filepath.Join(dir, "bin", "dbmeter")
	doc := filepath.Join(t.TempDir(), "r.json")
	if out, err := exec.Command(bin, "null", "--count", "10", "--no-disk-probe", "--quiet", "--json", doc).CombinedOutput(); err != nil {
		t.Fatalf("dbmeter null: %v\n%s", err, out)
	}
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var d result.Document
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("dbmeter version: %v\n%s", err, out)
	}
	if first, _, _ := strings.Cut(string(out), "\n"); !strings.HasPrefix(first, "dbmeter "+d.Tool.Version+" (") {
		t.Errorf("dbmeter version says %q, the result %q", first, d.Tool.Version)
	}
	return d.Tool
}

// copyTree copies the source tree at src to dst, leaving out VCS
// directories and built binaries.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		// A linked worktree's .git is a file naming the real repository:
		// copied, it would make the copy's commits land on that branch.
		if rel != "." && strings.HasPrefix(d.Name(), ".") || d.IsDir() && rel == "bin" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(path, ".test") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
