#!/usr/bin/env bash
# coverage.sh - the statement coverage of internal/... over both test tiers,
# run as a checkout's own `make test` runs them.
#
# Usage: scripts/coverage.sh OUT [CHECKOUT]
#
# In CHECKOUT (default: the one this script is in), against servers from
# its own scripts/dev-services.sh, it runs make test's go test stages with
# every package under internal/ instrumented (-coverpkg=./internal/...):
#   1. DBMETER_E2E=1 go test -tags rocksdb ./...   (both tiers, stage 3)
#   2. the Makefile's machine-load tests, alone    (DBMETER_ALONE=1, -p 1;
#      skipped, saying so, in a checkout whose Makefile has no such target)
#   3. the Makefile's faults tests on a private pair of servers
#      (DBMETER_FAULT=1 DBMETER_E2E=1, -p 1)
# Race and fuzzing are left out: the race stage runs tests stage 1 already
# ran, and fuzzing's coverage depends on its inputs and time. Each test
# binary writes its counters to OUT/data (-test.gocoverdir), so the three
# stages count as one run; a failing test still writes them (a panic or
# a timeout does not), and the script goes on and says which stage failed.
#
# It writes OUT/cov.txt (go tool covdata textfmt), OUT/packages.txt
# (covered/total statements per package, every statement) and
# OUT/func.txt (go tool cover -func, statements inside functions), and
# prints both totals: issue 44 compares the second. Every package under
# internal/ that a test binary links is counted. A test binary writes its
# counters when its tests end: one re-executed as dbmeter (cmd/dbmeter's
# runs, study run's steps under internal/cli) never does, so only the
# test's own process counts.
#
# GO names the go command (default go), NICE the niceness of the tests
# (default 10, to leave others the CPU).
set -uo pipefail

PROG=coverage
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }
log() { printf '%s: %s\n' "$PROG" "$*" >&2; }

[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 OUT [CHECKOUT]" >&2; exit 2; }
GO=${GO:-go}
out=$(realpath -m -- "$1")
src=$(cd -- "${2:-$(dirname -- "$0")/..}" && pwd -P) || die "no checkout at ${2:-}"
[[ -x $src/scripts/dev-services.sh ]] || die "$src has no scripts/dev-services.sh"
[[ ! -e $out/data ]] || die "$out/data exists: give an OUT of a run of its own (counters would add up)"
mkdir -p "$out/data" || die "cannot create $out/data"
cd "$src" || exit 1

svc=scripts/dev-services.sh
main_state=$(mktemp -u /tmp/dbmeter-coverage.XXXXXX)
fault_state=$(mktemp -u /tmp/dbmeter-coverage-faults.XXXXXX)
# Both pairs are stopped whatever happens, as make test's are.
trap 'DBMETER_SERVICES_STATE=$main_state $svc down >/dev/null 2>&1;
      DBMETER_SERVICES_STATE=$fault_state $svc down >/dev/null 2>&1' EXIT

cover=(-tags rocksdb -count=1 -timeout 60m -cover "-coverpkg=./internal/...")
gocoverdir=(-args "-test.gocoverdir=$out/data")
failed=()

# target_run prints the -run regexp of a Makefile target's go test, and
# target_pkgs its packages, read from `make -n` so that each checkout's
# own lists are used (empty when the target does not exist).
target_run() { make -n --no-print-directory "$1" TESTLOG= 2>/dev/null | sed -n "s/.*-run '\([^']*\)'.*/\1/p" | head -1; }
target_pkgs() { make -n --no-print-directory "$1" TESTLOG= 2>/dev/null | grep -o ' \./[^ ;]*' | tr -d ' ' | sort -u; }

# stage NAME ENV... -- GO-TEST-ARGS... runs one instrumented go test,
# its output kept in OUT/NAME.log.
stage() {
    local name=$1 envs=()
    shift
    while [[ $1 != -- ]]; do envs+=("$1"); shift; done
    shift
    log "$name: go test $* (log: $out/$name.log)"
    local t0=$SECONDS
    if ! env "${envs[@]}" nice -n "${NICE:-10}" "$GO" test "${cover[@]}" "$@" "${gocoverdir[@]}" >"$out/$name.log" 2>&1; then
        failed+=("$name")
        grep -E '^(--- FAIL|FAIL|panic:)' "$out/$name.log" | head -20 >&2
    fi
    log "$name: $((SECONDS - t0)) s"
}

DBMETER_SERVICES_STATE=$main_state $svc up || die "servers did not start"
eval "$(DBMETER_SERVICES_STATE=$main_state $svc env)" || die "no server environment"

stage e2e DBMETER_E2E=1 DBMETER_SERVICES_STATE="$main_state" -- ./...

alone_run=$(target_run machine-load)
if [[ -n $alone_run ]]; then
    mapfile -t alone_pkgs < <(target_pkgs machine-load)
    stage machine-load DBMETER_ALONE=1 DBMETER_SERVICES_STATE="$main_state" -- -p 1 -run "$alone_run" "${alone_pkgs[@]}"
else
    log "machine-load: no such target in $src/Makefile: its tests ran in stage 1"
fi
DBMETER_SERVICES_STATE=$main_state $svc down >/dev/null 2>&1

fault_run=$(target_run faults)
mapfile -t fault_pkgs < <(target_pkgs faults)
[[ -n $fault_run && ${#fault_pkgs[@]} -gt 0 ]] || die "no faults target in $src/Makefile"
DBMETER_SERVICES_STATE=$fault_state $svc up || die "the faults' servers did not start"
eval "$(DBMETER_SERVICES_STATE=$fault_state $svc env)" || die "no server environment for the faults"
stage faults DBMETER_FAULT=1 DBMETER_E2E=1 DBMETER_SERVICES_STATE="$fault_state" -- -p 1 -run "$fault_run" "${fault_pkgs[@]}"
DBMETER_SERVICES_STATE=$fault_state $svc down >/dev/null 2>&1

"$GO" tool covdata textfmt -i="$out/data" -o "$out/cov.txt" || die "go tool covdata textfmt failed"
"$GO" tool cover -func="$out/cov.txt" >"$out/func.txt" || die "go tool cover -func failed"
# A block's line is FILE:START,END STATEMENTS COUNT; a block that two
# test binaries' counters name twice is counted once, covered if either
# ran it.
awk 'NR > 1 {
        stmts[$1] = $2
        if ($3 > 0) hit[$1] = 1
    }
    END {
        for (b in stmts) {
            split(b, a, ":"); pkg = a[1]; sub(/\/[^\/]*$/, "", pkg)
            total[pkg] += stmts[b]; all += stmts[b]
            if (b in hit) { covered[pkg] += stmts[b]; allhit += stmts[b] }
        }
        for (p in total) printf "%-60s %6d/%6d %5.1f%%\n", p, covered[p], total[p], 100 * covered[p] / total[p]
        printf "%-60s %6d/%6d %5.1f%%\n", "total", allhit, all, 100 * allhit / all
    }' "$out/cov.txt" | sort >"$out/packages.txt"

echo "every statement: $(awk '/^total / {print $2, $3, $4}' "$out/packages.txt")"
echo "go tool cover -func: $(awk 'END {print $NF}' "$out/func.txt")"
if [[ ${#failed[@]} -gt 0 ]]; then
    log "failing tests in: ${failed[*]} (their counters are counted; see the logs)"
    exit 1
fi
