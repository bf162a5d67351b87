#!/usr/bin/env bash
# go test with its -json events kept: scripts/gotest-json.sh LOG ARGS... runs
# `go test -json ARGS...`, saves the events to LOG and prints what plain
# go test prints (a line per package, a failing test's output), through
# scripts/testsummary.py. Its status is go test's, or 1 when a test failed.
# make test uses it for every go test stage, and reads the logs back at the
# end for the 10 slowest tests (TESTSUMMARY_VERBOSE=1 prints every test's
# output as it comes).
#
# With GOTEST_RERUN=1 (make test), a test that failed runs once more,
# alone, and the status is the re-run's: the end-to-end tests share two
# cores with two other go tests and real servers restarting, and one that
# failed once under that load is told apart from one that fails every
# time. Both runs are kept (LOG, LOG with .rerun-N before .json) and the
# summary lists the first failure, so a flaky test is seen, never hidden.
# A failure outside any test (a build error, a package's init) is not
# re-run.
set -uo pipefail
here=$(dirname "$0")
log=$1
shift
${GO:-go} test -json "$@" | python3 "$here/testsummary.py" stream "$log"
status=$?
if ((status == 0)) || [ "${GOTEST_RERUN:-}" != 1 ]; then
	exit $status
fi
# go test's own flags, without -run, -skip and the packages.
flags=()
while (($#)); do
	case $1 in
	-run | -skip) shift ;;
	-run=* | -skip=* | ./*) ;;
	-tags | -timeout | -p | -count | -parallel) flags+=("$1" "$2"); shift ;;
	*) flags+=("$1") ;;
	esac
	shift
done
mapfile -t failed < <(python3 "$here/testsummary.py" failed "$log")
((${#failed[@]})) || exit $status
status=0
n=0
for f in "${failed[@]}"; do
	n=$((n + 1))
	pkg=${f%% *} pattern=${f#* }
	echo "gotest-json: ${pkg#github.com/dbmeter/dbmeter/} $pattern failed; running it once more, alone"
	${GO:-go} test -json "${flags[@]}" -run "$pattern" "$pkg" | python3 "$here/testsummary.py" stream "${log%.json}.rerun-$n.json" || status=1
done
if ((status == 0)); then
	echo "gotest-json: every failed test passed when run again: flaky under load (the summary lists the first failures)"
fi
exit $status
