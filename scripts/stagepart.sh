#!/usr/bin/env bash
# One part of a make test stage whose parts run at once:
#   scripts/stagepart.sh TAG NAME COMMAND...
# runs COMMAND with each line it prints prefixed "TAG| " (so that the
# interleaved lines of parts running together say whose they are), notes in
# $TESTLOG/stages when it starts and ends ("EPOCH & NAME", "EPOCH &end
# STATUS NAME": scripts/testsummary.py report prints each part's seconds
# under its stage), and exits with COMMAND's status.
# COMMAND runs in a process group of its own: a SIGTERM to this script
# (make test's trap, when the run stops early) is passed to the whole group,
# and the script waits for it to end, so that a part's own cleanup (make
# faults' servers) still runs. make test starts parts in the background,
# where SIGINT is ignored: a ^C reaches them through that trap.
set -uo pipefail

if (($# < 3)); then
	echo "usage: scripts/stagepart.sh TAG NAME COMMAND..." >&2
	exit 2
fi
tag=$1 name=$2
shift 2

note() { [[ -z ${TESTLOG:-} ]] || echo "$(date +%s) $*" >>"$TESTLOG/stages"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/out"
# The prefixer reads until every writer has closed the pipe: the group's
# last process, a cleanup included, is heard to the end. It ignores the
# signals that stop a run (a SIGTERM to make test's whole process group
# reaches it too): killed, it would take the part's cleanup down with it
# (a write to a pipe nobody reads is a SIGPIPE).
(trap '' TERM INT HUP && exec sed -u "s/^/$tag| /") <"$tmp/out" &
prefixer=$!

note "& $name"
# setsid execs COMMAND as the leader of a new process group (a background
# job of a script is never one already, so setsid does not fork): $! is
# the group's id.
setsid "$@" >"$tmp/out" 2>&1 &
pid=$!
trap 'kill -TERM -- "-$pid" 2>/dev/null' TERM HUP
while :; do
	wait "$pid"
	rc=$?
	# wait returns early (status > 128) when a trapped signal arrives.
	kill -0 "$pid" 2>/dev/null || break
done
wait "$prefixer"
note "&end $rc $name"
exit "$rc"
