#!/usr/bin/env bash
# ch-insert-ceiling.sh - how close each `dbmeter ch insert` client path gets
# to the server's own ingest rate.
#
# Usage: scripts/ch-insert-ceiling.sh [DSN]
#
# The ceiling is the same generated rows, pre-encoded in ClickHouse's Native
# format (what the native protocol carries) by `dbmeter ch insert
# --dump-format`, piped to `clickhouse-client --query 'INSERT … FORMAT
# Native'`: the server's ingest with a C++ client and no Go in the way. Then
# every client path the server supports inserts the same rows, one after
# another, and the script prints rows/s and the ratio to the ceiling.
#
# DSN defaults to $DBMETER_CLICKHOUSE_DSN, then $DBMETER_CLICKHOUSE_LEGACY_DSN
# (eval "$(scripts/dev-services.sh env)" sets it). Both DSN forms work.
#
# Environment: ROWS (500000), BATCH (100000), SEED (1), FORMAT (Native or
# TSV), CLIENTS (auto: every path the server supports), TABLE
# (dbmeter.ceiling_event; dbmeter creates it and this script drops it at the
# end, only if it carries dbmeter's mark), DBMETER (a dbmeter binary; built
# from this checkout if unset).
set -euo pipefail

PROG=ch-insert-ceiling
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

DSN=${1:-${DBMETER_CLICKHOUSE_DSN:-${DBMETER_CLICKHOUSE_LEGACY_DSN:-}}}
[[ -n $DSN ]] || die "no DSN: pass one or set DBMETER_CLICKHOUSE_DSN (eval \"\$(scripts/dev-services.sh env)\" sets DBMETER_CLICKHOUSE_LEGACY_DSN)"
ROWS=${ROWS:-500000}
BATCH=${BATCH:-100000}
SEED=${SEED:-1}
FORMAT=${FORMAT:-Native}
CLIENTS=${CLIENTS:-auto}
TABLE=${TABLE:-dbmeter.ceiling_event}
command -v clickhouse-client >/dev/null || die "clickhouse-client is not installed"
command -v jq >/dev/null || die "jq is not installed"

# Split the DSN into clickhouse-client's flags (both forms).
urldecode() { local s=${1//+/ }; printf '%b' "${s//%/\\x}"; }
query_param() { # query_param QUERY NAME
    local kv
    IFS='&' read -ra kvs <<<"$1"
    for kv in "${kvs[@]}"; do
        [[ ${kv%%=*} == "$2" ]] && { urldecode "${kv#*=}"; return; }
    done
}
if [[ $DSN =~ ^clickhouse://(([^:@/]*)(:([^@/]*))?@)?([^/?]+)(/([^?]*))?(\?(.*))?$ ]]; then
    CH_USER=$(urldecode "${BASH_REMATCH[2]}") CH_PASSWORD=$(urldecode "${BASH_REMATCH[4]}")
    CH_HOSTPORT=${BASH_REMATCH[5]}
elif [[ $DSN =~ ^tcp://([^/?]+)/?(\?(.*))?$ ]]; then
    CH_HOSTPORT=${BASH_REMATCH[1]} q=${BASH_REMATCH[3]}
    CH_USER=$(query_param "$q" username) CH_PASSWORD=$(query_param "$q" password)
else
    die "cannot read the DSN: want clickhouse://user:password@host:port/db or tcp://host:port?username=…&password=…"
fi
CH_HOST=${CH_HOSTPORT%:*} CH_PORT=9000
[[ $CH_HOSTPORT == *:* ]] && CH_PORT=${CH_HOSTPORT##*:}
chc() { clickhouse-client --host "$CH_HOST" --port "$CH_PORT" --user "${CH_USER:-default}" --password "$CH_PASSWORD" "$@"; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dbmeter-ceiling.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [[ -z ${DBMETER:-} ]]; then
    DBMETER=$WORK/dbmeter
    (cd "$(dirname "$0")/.." && go build -o "$DBMETER" ./cmd/dbmeter) || die "go build failed"
fi

db=${TABLE%%.*} name=${TABLE#*.}
count() { chc --query "SELECT count() FROM \`$db\`.\`$name\`"; }

# dbmeter creates (and marks) the table; its first small run also warms the
# server up, so that the ceiling is not measured cold.
echo "$PROG: creating $TABLE and warming up" >&2
"$DBMETER" ch insert --dsn "$DSN" --table "$TABLE" --create --clients "$CLIENTS" --rows "$BATCH" --batch "$BATCH" \
    --json "$WORK/warmup.json" --quiet || true
count >/dev/null || die "could not create $TABLE"
if [[ $CLIENTS == auto ]]; then
    CLIENTS=$(jq -r '[.runs[].target] | join(",")' "$WORK/warmup.json")
fi

echo "$PROG: encoding $ROWS rows as $FORMAT" >&2
"$DBMETER" ch insert --dump-format "$FORMAT" --rows "$ROWS" --batch "$BATCH" --seed "$SEED" >"$WORK/rows"
cols="ccollectorip, cdevip, cdevtype, cdstip, ceventmsg, ceventname, ceventtype, cflowdir, cobject, coperation, csrcip, csrclogtype, logtype_tag, manufacturer, reason, iappprotocol, icollecttype, idstport, ieventlevel, imergecount, iprotocol, isrcport, lduration, lrecivepack, lsendpack, request_body_len, response_body_len, lendtime, lid, loccurtime, lrecepttime, lstartime"

server=$(chc --query 'SELECT version()')
printf '\nClickHouse %s, %d rows of %d, seed %d, %s\n\n' "$server" "$ROWS" "$BATCH" "$SEED" "$(date -u +%FT%TZ)"
printf '%-26s %12s %8s %10s\n' path rows/s ratio "rows ok"

before=$(count)
start=$(date +%s.%N)
chc --query "INSERT INTO \`$db\`.\`$name\` ($cols) FORMAT $FORMAT" <"$WORK/rows"
end=$(date +%s.%N)
gained=$(( $(count) - before ))
ceiling=$(echo "$ROWS / ($end - $start)" | bc -l)
printf '%-26s %12.0f %8s %10s\n' "clickhouse-client $FORMAT" "$ceiling" "1.00" "$([[ $gained == "$ROWS" ]] && echo yes || echo "no: $gained")"

# Every path the server supports (or CLIENTS), one after another.
status=0
IFS=',' read -ra paths <<<"$CLIENTS"
for c in "${paths[@]}"; do
    if ! "$DBMETER" ch insert --dsn "$DSN" --table "$TABLE" --clients "$c" --rows "$ROWS" --batch "$BATCH" --seed "$SEED" \
        --json "$WORK/$c.json" --quiet 2>"$WORK/$c.err"; then
        [[ -s $WORK/$c.json ]] || { printf '%-26s %s\n' "$c" "failed: $(head -1 "$WORK/$c.err")"; status=1; continue; }
    fi
    read -r rate ok < <(jq -r '.runs[0] | "\(.rows_s) \(if .extra.rows_counted == .extra.rows_acknowledged then "yes" else "no" end)"' "$WORK/$c.json")
    printf '%-26s %12.0f %8.2f %10s\n' "$c" "$rate" "$(echo "$rate / $ceiling" | bc -l)" "$ok"
done

# Drop the table only if dbmeter made it.
mark=$(chc --query "SELECT count() FROM system.columns WHERE database = '$db' AND table = '$name' AND name = 'lid' AND comment = 'dbmeter:created'")
if [[ $mark == 1 ]]; then
    chc --query "DROP TABLE \`$db\`.\`$name\`"
else
    echo "$PROG: $TABLE lacks dbmeter's mark: left in place" >&2
fi
exit $status
