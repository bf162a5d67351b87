#!/usr/bin/env bash
# go test with its -json events kept: scripts/gotest-json.sh LOG ARGS... runs
# `go test -json ARGS...`, saves the events to LOG and prints what plain
# go test prints (a line per package, a failing test's output), through
# scripts/testsummary.py. Its status is go test's, or 1 when a test failed.
# make test uses it for every go test stage, and reads the logs back at the
# end for the 10 slowest tests (TESTSUMMARY_VERBOSE=1 prints every test's
# output as it comes).
set -uo pipefail
log=$1
shift
${GO:-go} test -json "$@" | python3 "$(dirname "$0")/testsummary.py" stream "$log"
