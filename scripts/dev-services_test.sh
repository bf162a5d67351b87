#!/usr/bin/env bash
# Test for scripts/dev-services.sh: up, idempotent up, env + real connections
# (PostgreSQL and ClickHouse, right and wrong passwords), stale-state recovery,
# down (directory removed, ports closed).
#
# Uses its own state file, so it does not disturb services started by a
# developer with the default state file. Needs root or the packages installed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
svc=$here/dev-services.sh
export DBMETER_SERVICES_STATE=${TMPDIR:-/tmp}/dbmeter-services-test.$$.state

fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
check() {  # check DESCRIPTION COMMAND...
    local d=$1; shift
    if "$@"; then pass "$d"; else fail "$d"; fi
}
fatal() { printf 'FAIL %s\n' "$*"; exit 1; }

cleanup() { "$svc" down >/dev/null 2>&1 || true; rm -f "$DBMETER_SERVICES_STATE"; }
trap cleanup EXIT

listening() { [[ -n $(ss -Htln "sport = :$1") ]]; }
only_loopback() {  # every listener on PORT is bound to 127.0.0.1
    local addrs
    addrs=$(ss -Htln "sport = :$1" | awk '{print $4}')
    [[ -n $addrs ]] && ! grep -qv '^127\.0\.0\.1:' <<<"$addrs"
}
ch_procs() { pgrep -f -- "--config-file=$1/ch/config.xml" | wc -l; }
pg_procs() { pgrep -f -- "-D $1/pg/data" | wc -l; }

PSQL=$(command -v psql || echo /usr/lib/postgresql/15/bin/psql)

# --- clean start ----------------------------------------------------------
check "down with nothing running succeeds" "$svc" down
"$svc" status >/dev/null; rc=$?
check "status with nothing running exits 3" test "$rc" -eq 3
check "env with nothing running fails" bash -c '! "$0" env >/dev/null 2>&1' "$svc"

# --- up -------------------------------------------------------------------
"$svc" up </dev/null || fatal "up failed"
pass "up"
check "status after up exits 0" "$svc" status
env1=$("$svc" env) || fatal "env failed"
eval "$env1"
dir1=$DBMETER_SERVICES_DIR
check "services dir exists" test -d "$dir1"
check "env sets DBMETER_CLICKHOUSE_DSN (what ch insert and ch query read without --dsn) to the legacy server" \
    test "$DBMETER_CLICKHOUSE_DSN" == "$DBMETER_CLICKHOUSE_LEGACY_DSN"

# --- up again: idempotent -------------------------------------------------
"$svc" up </dev/null || fatal "second up failed"
env2=$("$svc" env)
check "second up keeps the same services (same env)" test "$env1" == "$env2"
check "one ClickHouse server for this dir" test "$(ch_procs "$dir1")" -eq 1
check "one postmaster for this dir" test "$(pg_procs "$dir1")" -eq 1

ch_tcp_port=${DBMETER_CLICKHOUSE_TCP_ADDR##*:}
ch_http_port=${DBMETER_CLICKHOUSE_HTTP_URL##*:}
for p in "$PGPORT" "$ch_tcp_port" "$ch_http_port"; do
    check "port $p listens on 127.0.0.1 only" only_loopback "$p"
done

# --- PostgreSQL -------------------------------------------------------------
out=$("$PSQL" "$DBMETER_PG_DSN" -XAtc 'select 1' 2>&1)
check "psql via DBMETER_PG_DSN: select 1 (got: $out)" test "$out" == 1
out=$("$PSQL" -XAtc 'select current_user || current_database()' 2>&1)
check "psql via PG* env (got: $out)" test "$out" == dbmeterdbmeter
out=$(PGPASSWORD=wrong-password "$PSQL" -XAtc 'select 1' 2>&1)
check "psql with wrong password fails (got: ${out:0:80})" grep -q 'password authentication failed' <<<"$out"
out=$("$PSQL" "postgres://dbmeter:wrong@127.0.0.1:$PGPORT/dbmeter?sslmode=disable" -XAtc 'select 1' 2>&1)
check "DSN with wrong password fails" grep -q 'password authentication failed' <<<"$out"
out=$("$PSQL" -XAtc 'show server_version' 2>&1)
check "PostgreSQL is 15 (got: $out)" grep -q '^15\.' <<<"$out"

# --- ClickHouse -------------------------------------------------------------
http() { curl -sS --max-time 10 "$@"; }
out=$(http "$DBMETER_CLICKHOUSE_HTTP_URL/?user=$DBMETER_CLICKHOUSE_USER&password=$DBMETER_CLICKHOUSE_PASSWORD" --data-binary 'SELECT version()')
check "HTTP SELECT version() as dbmeter gives 18.16.x (got: $out)" grep -q '^18\.16\.' <<<"$out"
out=$(http "$DBMETER_CLICKHOUSE_HTTP_URL/" --data-binary 'SELECT 1')
check "HTTP default user without password works (got: $out)" test "$out" == 1
out=$(http "$DBMETER_CLICKHOUSE_HTTP_URL/?user=$DBMETER_CLICKHOUSE_USER&password=wrong" --data-binary 'SELECT 1')
check "HTTP wrong password fails (got: ${out:0:80})" grep -qi 'wrong password' <<<"$out"
if command -v clickhouse-client >/dev/null; then
    out=$(clickhouse-client --host 127.0.0.1 --port "$ch_tcp_port" --user "$DBMETER_CLICKHOUSE_USER" \
        --password "$DBMETER_CLICKHOUSE_PASSWORD" -q 'SELECT version()' 2>&1)
    check "native TCP SELECT version() gives 18.16.x (got: $out)" grep -q '^18\.16\.' <<<"$out"
    out=$(clickhouse-client --host 127.0.0.1 --port "$ch_tcp_port" --user "$DBMETER_CLICKHOUSE_USER" \
        --password wrong -q 'SELECT 1' 2>&1)
    check "native TCP wrong password fails (got: ${out:0:80})" grep -qi 'wrong password' <<<"$out"
fi
check "legacy DSN points at the TCP port" \
    grep -q "^tcp://127.0.0.1:$ch_tcp_port?username=dbmeter&password=$DBMETER_CLICKHOUSE_PASSWORD&database=default\$" <<<"$DBMETER_CLICKHOUSE_LEGACY_DSN"

# --- stale state: a dead server makes up start a fresh set ------------------
ch_pid=$(pgrep -f -- "--config-file=$dir1/ch/config.xml")
kill -KILL "$ch_pid"
for _ in $(seq 50); do kill -0 "$ch_pid" 2>/dev/null || break; sleep 0.1; done
"$svc" status >/dev/null; rc=$?
check "status reports a dead server (exit 3)" test "$rc" -eq 3
"$svc" up </dev/null || fatal "up after killing ClickHouse failed"
eval "$("$svc" env)"
dir2=$DBMETER_SERVICES_DIR
check "stale state: new directory" test "$dir2" != "$dir1"
check "stale state: old directory removed" test ! -e "$dir1"
check "stale state: old postmaster stopped" test "$(pg_procs "$dir1")" -eq 0
check "status after restart exits 0" "$svc" status
ch_tcp_port=${DBMETER_CLICKHOUSE_TCP_ADDR##*:}
ch_http_port=${DBMETER_CLICKHOUSE_HTTP_URL##*:}

# --- down -------------------------------------------------------------------
check "down" "$svc" down
check "services dir removed" test ! -e "$dir2"
check "state file removed" test ! -e "$DBMETER_SERVICES_STATE"
sleep 0.5
for p in "$PGPORT" "$ch_tcp_port" "$ch_http_port"; do
    check "port $p closed" bash -c '! [[ -n $(ss -Htln "sport = :$0") ]]' "$p"
done
check "no server processes left" test "$(ch_procs "$dir2")" -eq 0 -a "$(pg_procs "$dir2")" -eq 0
check "down again succeeds" "$svc" down

if ((fails)); then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all checks passed"
