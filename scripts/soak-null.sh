#!/usr/bin/env bash
# Runs `dbmeter null` at full speed for a few minutes and prints its resident
# memory near the start and at the end: histograms, not samples, so memory
# must stay flat however long the run. A benchmark, not a test.
#   scripts/soak-null.sh [DURATION] [WORKERS]     (default 3m, 2)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-3m}
workers=${2:-2}
bin=$(mktemp -d)/dbmeter
go build -o "$bin" ./cmd/dbmeter
out=$(mktemp)
"$bin" null --workers "$workers" --duration "$duration" --warmup 0 --progress 1s --quiet --json "$out" 2>/dev/null &
pid=$!
rss() { awk '/^VmRSS/ {print $2 " " $3}' "/proc/$pid/status" 2>/dev/null || echo "?"; }
sleep 5
start=$(rss)
echo "rss after 5s:  $start"
peak=0
while kill -0 "$pid" 2>/dev/null; do
	kb=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
	((kb > peak)) && peak=$kb
	last=$(rss)
	sleep 2
done
wait "$pid" || true
echo "rss near end:  $last"
echo "rss peak:      $peak kB"
ops=$(grep -m1 '"ops"' "$out" | tr -dc 0-9)
echo "operations:    $ops in $duration"
rm -rf "$(dirname "$bin")" "$out"
