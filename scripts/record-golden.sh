#!/usr/bin/env bash
# Records the real result documents the unit tier's golden tests render,
# then rewrites the golden files from them:
#   internal/study/testdata/recorded/sN.json.gz  every built-in study's quick form (s5 twice: s5b)
#   internal/report/testdata/recorded/*.json.gz  the family commands no study runs
#   internal/study/testdata/golden/, internal/report/testdata/rendered/  (go test -update)
# Needs the project's servers (scripts/dev-services.sh up; eval "$(scripts/dev-services.sh env)")
# and takes about five minutes on 2 cores. Review the diff of the golden files
# before committing: it is every rendered figure that moved.
# ONLY=s4 records one study (or ONLY=report the report's own documents).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DBMETER_PG_DSN:?no servers: scripts/dev-services.sh up; eval \"\$(scripts/dev-services.sh env)\"}"
only=${ONLY:-}
bin=$(mktemp -d)/dbmeter
tmp=$(dirname "$bin")
trap 'rm -rf "$tmp"' EXIT
go build -tags rocksdb -o "$bin" ./cmd/dbmeter

record() { # record FILE.json.gz ARGS...: one dbmeter run, its document gzipped
	local out=$1
	shift
	echo "record-golden: dbmeter $* -> $out" >&2
	"$bin" "$@" --json "$tmp/doc.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt" >&2; exit 1; }
	gzip -9n <"$tmp/doc.json" >"$out"
}

for s in s1 s2 s3 s4 s5; do
	[ -z "$only" ] || [ "$only" = "$s" ] || continue
	record "internal/study/testdata/recorded/$s.json.gz" study run "$s" --quick
done
# A second run of s5, for study compare's golden file.
if [ -z "$only" ] || [ "$only" = s5 ]; then
	record internal/study/testdata/recorded/s5b.json.gz study run s5 --quick
fi
if [ -z "$only" ] || [ "$only" = report ]; then
	d=internal/report/testdata/recorded
	record "$d/null-closed.json.gz" null --workers 2 --duration 1s --repeat 2
	record "$d/null-open-stall.json.gz" null --rate 1000 --stall-every 500ms --stall 50ms --duration 2s
	record "$d/null-find-max-rate.json.gz" null --delay 10ms --concurrency 10 --find-max-rate --slo 'p99<50ms' --step-duration 500ms
	record "$d/kv-ycsb.json.gz" kv --engines map,pebble --ops ycsb-load,ycsb-a,ycsb-e --keys 10000 --duration 500ms --no-disk-probe
	"$bin" pg --dsn "$DBMETER_PG_DSN" -i -s 1 -q >/dev/null
	record "$d/pg-drivers.json.gz" pg --dsn "$DBMETER_PG_DSN" -S -c 1,2 -T 1 --driver pgx,pq --repeat 2
fi
go test ./internal/study ./internal/report -run 'TestGolden' -update
git status --short internal/study/testdata internal/report/testdata
