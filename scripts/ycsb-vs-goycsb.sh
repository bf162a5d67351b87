#!/usr/bin/env bash
# ycsb-vs-goycsb.sh - run go-ycsb and `dbmeter kv --ops ycsb-X` alternately
# on the engines both have, with the same record count, operation count,
# threads and workload, and print each one's throughput and CPU per
# operation and dbmeter's ratio to go-ycsb. A benchmark, not a test: it
# asserts nothing, it reports.
#
# Usage: scripts/ycsb-vs-goycsb.sh [-r ROUNDS] [-n RECORDS] [-o OPERATIONS]
#            [-t THREADS] [-w WORKLOADS] [-e PAIRS]
#   defaults: 3 rounds, 20000 records, 100000 operations, 2 threads,
#   workloads a,c,e (of a-f), pairs badger=badger,boltdb=bolt,boltdb=bbolt
#   (go-ycsb's database = dbmeter's engine).
#
# go-ycsb: GOYCSB (default /tmp/goycsb/go-ycsb) is a go-ycsb v1.0.1 binary.
# `go install github.com/pingcap/go-ycsb/cmd/go-ycsb@v1.0.1` refuses (its
# go.mod has a replace directive), so build it from the module the proxy
# serves, outside the repository:
#   go mod download github.com/pingcap/go-ycsb@v1.0.1
#   cp -r "$(go env GOMODCACHE)/github.com/pingcap/go-ycsb@v1.0.1" /tmp/go-ycsb-src
#   chmod -R u+w /tmp/go-ycsb-src && cd /tmp/go-ycsb-src && go build -o /tmp/goycsb/go-ycsb ./cmd/go-ycsb
# GOYCSB_SRC (default /tmp/go-ycsb-src) holds its workloads/ files.
#
# Same workload: go-ycsb's own workload files differ from YCSB's (uniform
# requests in A, B, C, E and F; E's scans 1 record long), so the script
# passes YCSB's requestdistribution and maxscanlength with -p.
# Same durability: go-ycsb's boltdb always syncs each commit (bolt's
# default), so bolt and bbolt run with dbmeter --fsync true; go-ycsb's
# badger does not sync (badger.sync_writes=false), so badger runs with
# --fsync false.
# Engine versions: go-ycsb v1.0.1 links github.com/boltdb/bolt v1.3.1 (the
# same as dbmeter's bolt) and github.com/dgraph-io/badger v1.5.4 (dbmeter:
# badger/v4); bbolt is bolt's maintained fork. Each keeps its defaults.
#
# Throughput: operations over the run phase's wall time (go-ycsb's "Run
# finished, takes"; dbmeter's measured window). CPU per operation: go-ycsb's
# from /usr/bin/time (user+sys of the run process) minus that of a run of
# one operation per thread (opening and closing the database), over the
# operations;
# dbmeter's from its result document (client.cpu_s over the measured
# window, load excluded). Both processes run the engine in-process, so both
# figures include the engine's CPU.
set -euo pipefail

ROUNDS=3 RECORDS=20000 OPS=100000 THREADS=2 WORKLOADS=a,c,e PAIRS=badger=badger,boltdb=bolt,boltdb=bbolt
while getopts "r:n:o:t:w:e:h" opt; do
    case $opt in
        r) ROUNDS=$OPTARG ;; n) RECORDS=$OPTARG ;; o) OPS=$OPTARG ;; t) THREADS=$OPTARG ;;
        w) WORKLOADS=$OPTARG ;; e) PAIRS=$OPTARG ;;
        *) sed -n '2,12p' "$0" >&2; exit 2 ;;
    esac
done

die() { echo "ycsb-vs-goycsb: error: $*" >&2; exit 1; }
GOYCSB=${GOYCSB:-/tmp/goycsb/go-ycsb}
GOYCSB_SRC=${GOYCSB_SRC:-/tmp/go-ycsb-src}
[[ -x $GOYCSB ]] || die "no go-ycsb binary at $GOYCSB (set GOYCSB; see the comment at the top of this script)"
[[ -d $GOYCSB_SRC/workloads ]] || die "no go-ycsb workloads at $GOYCSB_SRC/workloads (set GOYCSB_SRC)"
for tool in jq /usr/bin/time go; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "building dbmeter..." >&2
go build -o "$work/dbmeter" ./cmd/dbmeter

dist() { case $1 in d) echo latest ;; *) echo zipfian ;; esac; }

# goycsb_props DB WORKLOAD OPERATIONS DIR: the -p flags of one invocation.
goycsb_props() {
    local db=$1 w=$2 n=$3 dir=$4
    local p=(-P "$GOYCSB_SRC/workloads/workload$w" -p "recordcount=$RECORDS" -p "operationcount=$n"
        -p "threadcount=$THREADS" -p "requestdistribution=$(dist "$w")" -p maxscanlength=100
        -p scanlengthdistribution=uniform)
    case $db in
        badger) p+=(-p "badger.dir=$dir" -p "badger.valuedir=$dir") ;;
        boltdb) p+=(-p "bolt.path=$dir/bolt.db") ;;
    esac
    printf '%s\n' "${p[@]}"
}

# Go duration (1m2.5s, 2.91s, 912ms, 850µs) in seconds.
go_seconds() {
    awk -v d="$1" 'BEGIN { s = 0
        while (match(d, /^[0-9.]+(h|ms|µs|us|ns|m|s)/)) {
            tok = substr(d, 1, RLENGTH); d = substr(d, RLENGTH + 1)
            match(tok, /[a-zµ]+$/); u = substr(tok, RSTART); v = substr(tok, 1, RSTART - 1) + 0
            s += v * (u == "h" ? 3600 : u == "m" ? 60 : u == "s" ? 1 : u == "ms" ? 1e-3 : u == "ns" ? 1e-9 : 1e-6)
        }
        printf "%.6f", s }'
}

# One go-ycsb run of workload $2 on database $1: prints "ops_s cpu_ns_per_op".
run_goycsb() {
    local db=$1 w=$2 dir="$work/goycsb" out secs cpu cpu1 props
    rm -rf "$dir" && mkdir -p "$dir"
    mapfile -t props < <(goycsb_props "$db" "$w" "$OPS" "$dir")
    "$GOYCSB" load "$db" "${props[@]}" >"$work/load.log" 2>&1 || die "go-ycsb load $db failed: $(tail -3 "$work/load.log")"
    # The cost of opening and closing: a run of one operation per thread
    # (go-ycsb wants at least that many).
    mapfile -t one < <(goycsb_props "$db" "$w" "$THREADS" "$dir")
    out=$(/usr/bin/time -f 'cpu %U %S' "$GOYCSB" run "$db" "${one[@]}" 2>&1) || die "go-ycsb run $db failed: $out"
    cpu1=$(awk '/^cpu /{print $2+$3}' <<<"$out")
    out=$(/usr/bin/time -f 'cpu %U %S' "$GOYCSB" run "$db" "${props[@]}" 2>&1) || die "go-ycsb run $db failed: $out"
    secs=$(go_seconds "$(awk '/^Run finished, takes /{print $4}' <<<"$out")")
    cpu=$(awk '/^cpu /{print $2+$3}' <<<"$out")
    grep -q ' - Takes(s): ' <<<"$out" || die "go-ycsb printed no results: $out"
    jq -n "[$OPS / $secs, ($cpu - $cpu1) * 1e9 / ($OPS - $THREADS)] | @tsv" -r
}

# One dbmeter run: prints "ops_s cpu_ns_per_op".
run_dbmeter() {
    local engine=$1 w=$2 fsync=false
    [[ $engine == bolt || $engine == bbolt ]] && fsync=true
    "$work/dbmeter" kv --engines "$engine" --ops "ycsb-$w" --keys "$RECORDS" --count "$OPS" --warmup 0 \
        --workers "$THREADS" --fsync "$fsync" --no-disk-probe --quiet --json "$work/r.json" 2>"$work/err" ||
        die "dbmeter kv --engines $engine --ops ycsb-$w failed: $(tail -1 "$work/err")"
    jq -r --arg w "ycsb-$w" '.runs[] | select(.workload == $w) | "\(.throughput_ops_s)\t\(.client.cpu_ns_per_op)"' "$work/r.json"
}

printf '%-14s %-3s %5s %12s %12s %7s %14s %14s %7s\n' engines wl round goycsb_ops/s dbmeter_ops/s ratio goycsb_cpu/op dbmeter_cpu/op ratio
IFS=, read -r -a pairs <<<"$PAIRS"
IFS=, read -r -a wls <<<"$WORKLOADS"
declare -A sg sd sgc sdc
for ((r = 1; r <= ROUNDS; r++)); do
    for pair in "${pairs[@]}"; do
        db=${pair%%=*} engine=${pair#*=}
        for w in "${wls[@]}"; do
            k="$pair $w"
            read -r g_ops g_cpu < <(run_goycsb "$db" "$w")
            read -r d_ops d_cpu < <(run_dbmeter "$engine" "$w")
            printf '%-14s %-3s %5d %12.0f %12.0f %7.2f %12.2fµs %12.2fµs %7.2f\n' "$pair" "$w" "$r" "$g_ops" "$d_ops" \
                "$(jq -n "$d_ops / $g_ops")" "$(jq -n "$g_cpu / 1000")" "$(jq -n "$d_cpu / 1000")" "$(jq -n "$d_cpu / $g_cpu")"
            sg[$k]=$(jq -n "${sg[$k]:-0} + $g_ops") sd[$k]=$(jq -n "${sd[$k]:-0} + $d_ops")
            sgc[$k]=$(jq -n "${sgc[$k]:-0} + $g_cpu") sdc[$k]=$(jq -n "${sdc[$k]:-0} + $d_cpu")
        done
    done
done
echo
echo "mean over $ROUNDS rounds ($RECORDS records, $OPS operations, $THREADS threads; ratio = dbmeter / go-ycsb):"
printf '%-14s %-3s %12s %12s %7s %14s %14s %7s\n' engines wl goycsb_ops/s dbmeter_ops/s ratio goycsb_cpu/op dbmeter_cpu/op ratio
for pair in "${pairs[@]}"; do
    for w in "${wls[@]}"; do
        k="$pair $w"
        printf '%-14s %-3s %12.0f %12.0f %7.2f %12.2fµs %12.2fµs %7.2f\n' "$pair" "$w" \
            "$(jq -n "${sg[$k]} / $ROUNDS")" "$(jq -n "${sd[$k]} / $ROUNDS")" "$(jq -n "${sd[$k]} / ${sg[$k]}")" \
            "$(jq -n "${sgc[$k]} / $ROUNDS / 1000")" "$(jq -n "${sdc[$k]} / $ROUNDS / 1000")" "$(jq -n "${sdc[$k]} / ${sgc[$k]}")"
    done
done
