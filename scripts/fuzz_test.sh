#!/usr/bin/env bash
# Test for scripts/fuzz.sh, run against a throwaway module (nothing is
# written to this repository): a clean target passes quietly; a crashing
# target fails the stage, prints go test's output, keeps the crasher under
# testdata/fuzz/ and names it, and go test then replays it; an input that
# fails once but not on replay fails the stage with that said; go test's
# coordinator-deadline race (go.dev/issue/75804) is tolerated only in its
# exact form, which a fake go tool prints since the real race is rare.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
go=${GO:-go}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
check() {  # check DESCRIPTION COMMAND...
	local d=$1; shift
	if "$@"; then pass "$d"; else fail "$d"; fi
}

# module DIR: a module whose scripts/fuzz.sh is the one under test.
module() {
	mkdir -p "$1/scripts" "$1/p"
	cp "$here/fuzz.sh" "$1/scripts/"
	printf 'module example.com/m\n\ngo 1.22\n' >"$1/go.mod"
}

# 1. Clean targets only: exit 0, one line a target, no go test output.
m=$tmp/clean
module "$m"
cat >"$m/p/p_test.go" <<'EOF'
package p

import "testing"

func FuzzOK(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) { _ = len(s) })
}
EOF
out=$("$m/scripts/fuzz.sh" 1s 2>&1); rc=$?
check "clean: exit 0" test "$rc" -eq 0
check "clean: quiet (two lines)" test "$(wc -l <<<"$out")" -eq 2
check "clean: no go test output" bash -c '! grep -q "fuzz: elapsed" <<<"$1"' _ "$out"

# 2. A real crasher, and an input that fails only once.
m=$tmp/crash
module "$m"
cat >"$m/p/p_test.go" <<'EOF'
package p

import (
	"os"
	"strings"
	"testing"
)

func FuzzCrash(f *testing.F) {
	f.Add("a")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Count(s, "") > 3 {
			panic("input longer than 2: " + s)
		}
	})
}

// FuzzOnce fails on the first non-empty input while the marker file exists,
// like a worker that was starved once: the input does not fail again.
func FuzzOnce(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if s != "" && os.Remove(os.Getenv("FUZZ_ONCE_MARKER")) == nil {
			t.Fatal("failed once")
		}
	})
}
EOF
export FUZZ_ONCE_MARKER=$m/once
touch "$FUZZ_ONCE_MARKER"
out=$("$m/scripts/fuzz.sh" 5s 2>&1); rc=$?
echo "$out" >"$tmp/crash.log"
check "crash: exit 1" test "$rc" -eq 1
check "crash: go test output printed" grep -q 'panic: input longer than 2' "$tmp/crash.log"
check "crash: names the crasher" grep -Eq 'FAIL example.com/m/p FuzzCrash: crasher written to p/testdata/fuzz/FuzzCrash/[0-9a-f]+; it fails again when replayed' "$tmp/crash.log"
check "crash: prints the input" grep -q '^    go test fuzz v1' "$tmp/crash.log"
crasher=$(ls "$m"/p/testdata/fuzz/FuzzCrash/ 2>/dev/null | head -n 1)
check "crash: file kept under testdata/fuzz" test -n "$crasher"
check "crash: plain go test replays it and fails" bash -c '! (cd "$1" && "$2" test -count=1 -run FuzzCrash ./p >/dev/null 2>&1)' _ "$m" "$go"
check "once: said not to fail on replay" grep -q 'FAIL example.com/m/p FuzzOnce: input written to p/testdata/fuzz/FuzzOnce/[0-9a-f]*, but it passes when replayed alone' "$tmp/crash.log"
check "crash: summary lists both" grep -q '^fuzz: 2 target(s) failed:' "$tmp/crash.log"

# 3. The coordinator race, from a fake go that prints its exact output, and
# the same output with a second failure, which must not be tolerated.
m=$tmp/race
module "$m"
cp "$tmp/clean/p/p_test.go" "$m/p/"
cat >"$tmp/fakego" <<'EOF'
#!/usr/bin/env bash
# Passes everything to go except a fuzzing run, which prints FAKE_OUTPUT.
for a in "$@"; do
	if [[ $a == -fuzz ]]; then printf '%b' "$FAKE_OUTPUT"; exit 1; fi
done
exec "$REAL_GO" "$@"
EOF
chmod +x "$tmp/fakego"
# Captured from a real failure of FuzzRead (go1.26.8, -fuzztime 2s, 2 cores,
# beside two busy loops: 1 run in 40), renamed to FuzzOK.
race='fuzz: elapsed: 0s, gathering baseline coverage: 0/342 completed\nfuzz: elapsed: 1s, gathering baseline coverage: 342/342 completed, now fuzzing with 2 workers\nfuzz: elapsed: 2s, execs: 11502 (5515/sec), new interesting: 0 (total: 342)\n--- FAIL: FuzzOK (2.11s)\n    context deadline exceeded\nFAIL\nexit status 1\nFAIL\texample.com/m/p\t2.165s\n'
out=$(GO=$tmp/fakego REAL_GO=$(command -v "$go") FAKE_OUTPUT=$race "$m/scripts/fuzz.sh" 5s 2>&1); rc=$?
check "race: tolerated, exit 0" test "$rc" -eq 0
check "race: said so" grep -q 'go.dev/issue/75804' <<<"$out"
other=${race/    context deadline exceeded/    context deadline exceeded\\n    p_test.go:9: something else}
out=$(GO=$tmp/fakego REAL_GO=$(command -v "$go") FAKE_OUTPUT=$other "$m/scripts/fuzz.sh" 5s 2>&1); rc=$?
check "race plus another failure: exit 1" test "$rc" -eq 1
check "race plus another failure: output printed" grep -q 'something else' <<<"$out"
written=${race/--- FAIL/Failing input written to testdata/fuzz/FuzzOK/0123\\n--- FAIL}
out=$(GO=$tmp/fakego REAL_GO=$(command -v "$go") FAKE_OUTPUT=$written "$m/scripts/fuzz.sh" 5s 2>&1); rc=$?
check "deadline with a written input: exit 1" test "$rc" -eq 1

if ((fails)); then
	echo "--- scripts/fuzz.sh output of the crash case:"
	cat "$tmp/crash.log"
	echo "$fails check(s) failed"
	exit 1
fi
echo "all checks passed"
