#!/usr/bin/env bash
# pg-rate-cpu.sh - what holding a rate costs the client: run pgbench and
# `dbmeter pg` alternately with the same -R command on the same PostgreSQL
# database and print each one's CPU (user+sys of the whole process, from
# /usr/bin/time), their ratio, and each one's schedule lag. dbmeter usually
# shares a machine with the server it measures, so its CPU is taken from
# that server. A benchmark, not a test: it asserts nothing, it reports.
#
# Usage: scripts/pg-rate-cpu.sh [-r ROUNDS] [-R RATE] [-T SECONDS]
#            [-c CLIENTS] [-s SCALE] [-d DRIVER] [NAME=DBMETER_BINARY ...]
#   defaults: 3 rounds of `-R 5000 -S -c 4 -T 10`, scale 10, driver pgx, and
#   dbmeter built from this tree. Binaries given as NAME=PATH (for example
#   old=/tmp/old-dbmeter new=/tmp/new-dbmeter) are each run in every round,
#   in the order given, so that designs compare in the same conditions.
#
# Server: DBMETER_PG_DSN (a postgres:// URL) if set, else the dev-services
# cluster (scripts/dev-services.sh env). The script makes a database of its
# own, dbmeter_pg_rate_cpu_<pid>, initialises it with `dbmeter pg -i`, and
# drops it at the end.
set -euo pipefail

ROUNDS=3 RATE=5000 SECS=10 CLIENTS=4 SCALE=10 DRIVER=pgx
while getopts "r:R:T:c:s:d:h" opt; do
    case $opt in
        r) ROUNDS=$OPTARG ;; R) RATE=$OPTARG ;; T) SECS=$OPTARG ;; c) CLIENTS=$OPTARG ;;
        s) SCALE=$OPTARG ;; d) DRIVER=$OPTARG ;;
        *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))

script=pg-rate-cpu
# shellcheck source=scripts/pg-scratch-db.sh
source "$(dirname "$0")/pg-scratch-db.sh"

names=() bins=()
if (($# == 0)); then
    echo "building dbmeter..." >&2
    go build -o "$work/dbmeter" ./cmd/dbmeter
    names=(dbmeter) bins=("$work/dbmeter")
fi
for arg in "$@"; do
    [[ $arg == *=* && -x ${arg#*=} ]] || die "$arg: want NAME=PATH to a dbmeter binary"
    names+=("${arg%%=*}") bins+=("${arg#*=}")
done

psql -q "$DBMETER_PG_DSN" -c "create database $db" >/dev/null
echo "initialising $db at scale $SCALE..." >&2
"${bins[0]}" pg -i -s "$SCALE" --dsn "$dsn" 2>/dev/null

flags=(-n -S -R "$RATE" -c "$CLIENTS" -T "$SECS")
echo "warming the cache..." >&2
pgbench -n -S -c "$CLIENTS" -T 3 "$dsn" >/dev/null 2>&1

# cpu_of prints user+sys seconds from /usr/bin/time's "cpu U S" line.
cpu_of() { awk '/^cpu /{printf "%.2f", $2+$3}' <<<"$1"; }

# One pgbench run: prints "cpu_s tps lag_ms".
run_pgbench() {
    local out
    out=$(/usr/bin/time -f 'cpu %U %S' pgbench "${flags[@]}" "$dsn" 2>&1) || die "pgbench failed: $out"
    awk '/^tps = /{tps=$3} /^rate limit schedule lag: avg/{lag=$6} /^cpu /{cpu=$2+$3}
         END{printf "%.2f %s %s\n", cpu, tps, lag}' <<<"$out"
}

# One dbmeter run of binary $1: prints "cpu_s tps lag_ms errors" (lag: the
# mean, as pgbench prints it). A run whose operations failed exits 1 but
# still writes its result: on an overloaded machine the arrivals queued at
# the end of the window are cancelled and counted as unfinished, which
# pgbench skips silently; the errors column shows them.
run_dbmeter() {
    local out
    rm -f "$work/r.json"
    out=$(/usr/bin/time -f 'cpu %U %S' "$1" pg "${flags[@]}" --driver "$DRIVER" --dsn "$dsn" --no-disk-probe \
        --quiet --progress 0 --json "$work/r.json" 2>&1) || [[ -s $work/r.json ]] || die "dbmeter pg failed: $(grep -v '^cpu ' <<<"$out" | tail -1)"
    printf '%s %s\n' "$(cpu_of "$out")" \
        "$(jq -r '.runs[0] | "\(.throughput_ops_s) \(.lag_ns.mean / 1e6) \(.errors)"' "$work/r.json")"
}

echo "pgbench ${flags[*]}, driver $DRIVER, $ROUNDS rounds; CPU is the whole process's (user+sys)"
printf '%5s %-10s %8s %10s %10s %8s %11s\n' round client cpu_s tps lag_ms errors cpu/pgbench
declare -A sum
for ((r = 1; r <= ROUNDS; r++)); do
    read -r pg_cpu pg_tps pg_lag < <(run_pgbench)
    printf '%5d %-10s %8.2f %10.1f %10.3f %8s %11s\n' "$r" pgbench "$pg_cpu" "$pg_tps" "$pg_lag" - 1
    sum[pgbench]=$(jq -n "${sum[pgbench]:-0} + $pg_cpu")
    for i in "${!bins[@]}"; do
        read -r cpu tps lag errs < <(run_dbmeter "${bins[$i]}")
        printf '%5d %-10s %8.2f %10.1f %10.3f %8s %11.2f\n' "$r" "${names[$i]}" "$cpu" "$tps" "$lag" "$errs" "$(jq -n "$cpu / $pg_cpu")"
        sum[${names[$i]}]=$(jq -n "${sum[${names[$i]}]:-0} + $cpu")
    done
done
echo
echo "mean CPU over $ROUNDS rounds:"
printf '%-10s %8.2f s\n' pgbench "$(jq -n "${sum[pgbench]} / $ROUNDS")"
for n in "${names[@]}"; do
    printf '%-10s %8.2f s  %.2f x pgbench\n' "$n" "$(jq -n "${sum[$n]} / $ROUNDS")" "$(jq -n "${sum[$n]} / ${sum[pgbench]}")"
done
