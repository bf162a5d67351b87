#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME each (go test -fuzz takes
# one target at a time) and, when one fails, says why: go test's own output,
# the crasher file it wrote and whether that input fails again when replayed
# alone. A passing target prints one line.
#
# usage: scripts/fuzz.sh [FUZZTIME]     (default 5s; GO=go overrides the tool)
#
# A crasher is written by go test under the package's testdata/fuzz/FuzzX/,
# where the ordinary `go test` replays it from then on: commit it with the fix.
# Its content is also printed, since a CI workspace is thrown away.
#
# One failure is not counted: Go before 1.27 can report its own -fuzztime
# deadline as a failure after the target ran its whole budget and found
# nothing (go.dev/issue/75804, a race in the fuzz coordinator that load makes
# likelier). It is recognised only in its exact form: the target's only
# failure message is "context deadline exceeded" and no input was written.
# Any other failure, including a hung or killed worker, fails the stage.
set -uo pipefail

go=${GO:-go}
fuzztime=${1:-5s}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=()
fail() {  # fail TARGET MESSAGE...: note a failed target and print why
	failures+=("$1")
	printf 'fuzz: FAIL %s: %s\n' "$1" "${*:2}"
}

# coordinator_race FILE TARGET: FILE is go test's output of a run whose only
# failure is the coordinator's own deadline (see above): one --- FAIL line for
# TARGET, followed by that one message and nothing else before FAIL.
coordinator_race() {
	! grep -q '^ *Failing input written to ' "$1" &&
		[[ $(grep -c -- '--- FAIL: ' "$1") -eq 1 ]] &&
		[[ $(awk -v t="--- FAIL: $2 (" '
			index($0, t) == 1 { on = 1; next }
			on && $0 == "FAIL" { exit }
			on { print }' "$1") == '    context deadline exceeded' ]]
}

# The targets are read from the test sources, as go list gives them (the
# files go test would build, build constraints applied): asking go test
# -list would build and link every package's test binary, about sixty, to
# name a few targets, most of the stage's time.
# One line a test file: package, directory, file, tab-separated.
files=$("$go" list -f '{{$p := .ImportPath}}{{$d := .Dir}}{{range .TestGoFiles}}{{$p}}	{{$d}}	{{$d}}/{{.}}
{{end}}{{range .XTestGoFiles}}{{$p}}	{{$d}}	{{$d}}/{{.}}
{{end}}' ./...) || { echo "fuzz: go list ./... failed" >&2; exit 1; }
# The list is read on fd 3, so that nothing the loop runs reads it.
while IFS=$'\t' read -r pkg dir file <&3; do
	[[ -n $file ]] || continue
	rel=${dir#"$root"/}
	for f in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*\*testing\.F).*/\1/p' "$file"); do
		name="$pkg $f"
		printf 'fuzz %s' "$name"
		out=$tmp/out
		start=$SECONDS
		if "$go" test -run '^$' -fuzz "^$f\$" -fuzztime "$fuzztime" "$pkg" >"$out" 2>&1; then
			# The executions say whether the target really fuzzed on a busy
			# machine; the seconds include building the instrumented binary.
			execs=$(sed -n 's/.*, execs: \([0-9]*\) .*/\1/p' "$out" | tail -n 1)
			printf ': ok, %s execs, %ds\n' "${execs:-0}" $((SECONDS - start))
			continue
		fi
		printf ': go test failed after %ds\n' $((SECONDS - start))
		if coordinator_race "$out" "$f"; then
			sed 's/^/    | /' "$out"
			echo "fuzz: $f ran its $fuzztime and found nothing; go test then reported its own" \
				"-fuzztime deadline as a failure (go.dev/issue/75804, Go < 1.27): not counted"
			continue
		fi
		echo "---- go test -fuzz output for $name"
		cat "$out"
		echo "----"
		# go test prints the path relative to the package directory.
		written=$(sed -n 's/^ *Failing input written to //p' "$out" | tail -n 1)
		if [[ -z $written ]]; then
			if grep -q 'no crash will be recorded' "$out"; then
				fail "$name" "a fuzz worker was killed by a signal (the kernel's OOM killer?); no input was recorded"
			else
				fail "$name" "go test failed without writing an input (output above)"
			fi
			continue
		fi
		crasher=$rel/$written
		echo "fuzz: the failing input, $crasher:"
		head -c 4096 "$dir/$written" | sed 's/^/    /'
		echo
		# Replay it as the ordinary go test run will.
		id=$(basename "$written")
		if "$go" test -count=1 -run "^$f\$/^$id\$" "$pkg" >"$tmp/replay" 2>&1; then
			fail "$name" "input written to $crasher, but it passes when replayed alone" \
				"(go test -run '^$f\$/^$id\$' $pkg): the worker probably hung on a starved machine" \
				"or died for a reason outside the input; look at the output above"
		else
			fail "$name" "crasher written to $crasher; it fails again when replayed" \
				"(go test -run '^$f\$/^$id\$' $pkg), so from now on go test ./... fails on it:" \
				"fix the bug and commit the file"
		fi
	done
done 3<<<"$files"

if ((${#failures[@]})); then
	printf 'fuzz: %d target(s) failed:\n' "${#failures[@]}"
	printf '    %s\n' "${failures[@]}"
	exit 1
fi
echo "fuzz: all targets ran clean"
