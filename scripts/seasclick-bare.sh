#!/usr/bin/env bash
# seasclick-bare.sh - what running SeasClick under dbmeter costs: dbmeter's
# php-seasclick-block (a worker process behind the worker protocol) beside
# the same SeasClick calls in a bare PHP loop (scripts/seasclick-bare.php),
# on the same rows, table, batch and blocks per INSERT, one after the
# other, REPEAT times each in turn. Prints rows/s of each and their ratio.
#
# Usage: scripts/seasclick-bare.sh
# Environment: DBMETER_CLICKHOUSE_LEGACY_DSN or DBMETER_CLICKHOUSE_DSN in
# the tcp:// form (eval "$(scripts/dev-services.sh env)"), BATCH (10000),
# BLOCKS (10: blocks per INSERT), DURATION (10: seconds; not SECONDS,
# which bash sets itself), REPEAT (3), TABLE
# (dbmeter.bare_event, created by dbmeter), DBMETER (a binary; built from
# this checkout if unset).
set -euo pipefail
PROG=seasclick-bare
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }
DSN=${DBMETER_CLICKHOUSE_DSN:-${DBMETER_CLICKHOUSE_LEGACY_DSN:-}}
[[ $DSN == tcp://* ]] || die "set DBMETER_CLICKHOUSE_LEGACY_DSN (tcp://host:port?username=…&password=…): eval \"\$(scripts/dev-services.sh env)\""
BATCH=${BATCH:-10000} BLOCKS=${BLOCKS:-10} DURATION=${DURATION:-10} REPEAT=${REPEAT:-3} TABLE=${TABLE:-dbmeter.bare_event}
command -v jq >/dev/null || die "jq is not installed"
php -r 'exit(extension_loaded("SeasClick") ? 0 : 1);' || die "PHP lacks SeasClick: scripts/deps.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z ${DBMETER:-} ]]; then
	(cd "$root" && go build -tags rocksdb -o "$tmp/dbmeter" ./cmd/dbmeter) || die "build dbmeter"
	DBMETER=$tmp/dbmeter
fi
urldecode() { local s=${1//+/ }; printf '%b' "${s//%/\\x}"; }
param() { local q=${DSN#*\?} kv; for kv in ${q//&/ }; do [[ ${kv%%=*} == "$1" ]] && { urldecode "${kv#*=}"; return; }; done; }
hostport=${DSN#tcp://}; hostport=${hostport%%\?*}
host=${hostport%:*} port=${hostport##*:}
user=$(param username) db=$(param database)
export CH_PASSWORD; CH_PASSWORD=$(param password)
"$DBMETER" ch insert --dump-format worker-rows --rows "$BATCH" --batch "$BATCH" > "$tmp/rows.jsonl"
for r in $(seq "$REPEAT"); do
	DBMETER_CLICKHOUSE_DSN=$DSN "$DBMETER" ch insert --clients php-seasclick-block --create --table "$TABLE" \
		--batch "$BATCH" --blocks-per-insert "$BLOCKS" --duration "${DURATION}s" --quiet --json "$tmp/run.json" 2>"$tmp/err" ||
		die "dbmeter ch insert failed: $(tail -1 "$tmp/err")"
	d=$(jq -r '.runs[0].rows_s' "$tmp/run.json")
	b=$(php "$root/scripts/seasclick-bare.php" "$tmp/rows.jsonl" "$host" "$port" "$user" "$db" "$TABLE" "$BLOCKS" "$DURATION")
	awk -v r="$r" -v d="$d" -v b="$b" 'BEGIN { printf "run %d: dbmeter php-seasclick-block %.0f rows/s, bare PHP loop %.0f rows/s, ratio %.3f\n", r, d, b, d / b }'
done
