#!/usr/bin/env bash
# pgbench-compare.sh - run pgbench and `dbmeter pg` alternately on the same
# PostgreSQL database and print, for each Go driver, both TPS figures, their
# ratio, and each client's CPU per transaction. A benchmark, not a test: it
# asserts nothing, it reports.
#
# Usage: scripts/pgbench-compare.sh [-r ROUNDS] [-T SECONDS] [-c CLIENTS]
#            [-j THREADS] [-s SCALE] [-M MODE] [-d DRIVERS] [-b SCRIPT]
#   defaults: 3 rounds of 10 s, -c 8 -j 2 -s 10 -M prepared, select-only,
#   drivers pgx,pgx-stdlib,pq.
#
# Server: DBMETER_PG_DSN (a postgres:// URL) if set, else the dev-services
# cluster (scripts/dev-services.sh env). The script makes a database of its
# own, dbmeter_pgbench_compare_<pid>, and drops it at the end.
#
# Client CPU: pgbench's from /usr/bin/time (user+sys of the pgbench process,
# connections included), dbmeter's from its result document (client.cpu_s
# over the measured window). Both are divided by the transactions each ran.
set -euo pipefail

ROUNDS=3 SECS=10 CLIENTS=8 THREADS=2 SCALE=10 MODE=prepared
DRIVERS=pgx,pgx-stdlib,pq SCRIPT=select-only
while getopts "r:T:c:j:s:M:d:b:h" opt; do
    case $opt in
        r) ROUNDS=$OPTARG ;; T) SECS=$OPTARG ;; c) CLIENTS=$OPTARG ;; j) THREADS=$OPTARG ;;
        s) SCALE=$OPTARG ;; M) MODE=$OPTARG ;; d) DRIVERS=$OPTARG ;; b) SCRIPT=$OPTARG ;;
        *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done

script=pgbench-compare
# shellcheck source=scripts/pg-scratch-db.sh
source "$(dirname "$0")/pg-scratch-db.sh"

echo "building dbmeter..." >&2
go build -o "$work/dbmeter" ./cmd/dbmeter
psql -q "$DBMETER_PG_DSN" -c "create database $db" >/dev/null
echo "initialising $db at scale $SCALE..." >&2
"$work/dbmeter" pg -i -s "$SCALE" --dsn "$dsn" 2>/dev/null

flags=(-n -b "$SCRIPT" -M "$MODE" -c "$CLIENTS" -j "$THREADS" -T "$SECS")
echo "warming the cache..." >&2
pgbench "${flags[@]:0:5}" -c "$CLIENTS" -j "$THREADS" -T 3 "$dsn" >/dev/null 2>&1

# One pgbench run: prints "tps cpu_ns_per_tx".
run_pgbench() {
    local out
    out=$(/usr/bin/time -f 'cpu %U %S' pgbench "${flags[@]}" "$dsn" 2>&1) || die "pgbench failed: $out"
    awk '/^tps = /{tps=$3} /^number of transactions actually processed:/{n=$NF} /^cpu /{cpu=$2+$3}
         END{if (n == 0) exit 1; printf "%s %.0f\n", tps, cpu*1e9/n}' <<<"$out"
}

# One dbmeter run with driver $1: prints "tps cpu_ns_per_tx".
run_dbmeter() {
    "$work/dbmeter" pg "${flags[@]}" --driver "$1" --dsn "$dsn" --quiet --json "$work/r.json" 2>"$work/err" ||
        die "dbmeter pg --driver $1 failed: $(tail -1 "$work/err")"
    jq -r '.runs[0] | "\(.throughput_ops_s) \(.client.cpu_ns_per_op)"' "$work/r.json"
}

printf '%-11s %5s %12s %12s %7s %16s %16s\n' driver round pgbench_tps dbmeter_tps ratio pgbench_cpu/tx dbmeter_cpu/tx
IFS=, read -r -a drivers <<<"$DRIVERS"
declare -A sum_pg sum_db sum_pgcpu sum_dbcpu
for ((r = 1; r <= ROUNDS; r++)); do
    for d in "${drivers[@]}"; do
        read -r pg_tps pg_cpu < <(run_pgbench)
        read -r db_tps db_cpu < <(run_dbmeter "$d")
        printf '%-11s %5d %12.1f %12.1f %7.3f %14.1fµs %14.1fµs\n' "$d" "$r" "$pg_tps" "$db_tps" \
            "$(jq -n "$db_tps / $pg_tps")" "$(jq -n "$pg_cpu / 1000")" "$(jq -n "$db_cpu / 1000")"
        sum_pg[$d]=$(jq -n "${sum_pg[$d]:-0} + $pg_tps")
        sum_db[$d]=$(jq -n "${sum_db[$d]:-0} + $db_tps")
        sum_pgcpu[$d]=$(jq -n "${sum_pgcpu[$d]:-0} + $pg_cpu")
        sum_dbcpu[$d]=$(jq -n "${sum_dbcpu[$d]:-0} + $db_cpu")
    done
done
echo
echo "mean over $ROUNDS rounds ($SCRIPT, -M $MODE, -c $CLIENTS -j $THREADS, -T $SECS, scale $SCALE):"
printf '%-11s %12s %12s %7s %16s %16s\n' driver pgbench_tps dbmeter_tps ratio pgbench_cpu/tx dbmeter_cpu/tx
for d in "${drivers[@]}"; do
    printf '%-11s %12.1f %12.1f %7.3f %14.1fµs %14.1fµs\n' "$d" \
        "$(jq -n "${sum_pg[$d]} / $ROUNDS")" "$(jq -n "${sum_db[$d]} / $ROUNDS")" \
        "$(jq -n "${sum_db[$d]} / ${sum_pg[$d]}")" \
        "$(jq -n "${sum_pgcpu[$d]} / $ROUNDS / 1000")" "$(jq -n "${sum_dbcpu[$d]} / $ROUNDS / 1000")"
done
