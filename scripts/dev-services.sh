#!/usr/bin/env bash
# dev-services.sh - throwaway PostgreSQL 15 and ClickHouse servers for dbmeter
# development and integration tests.
#
# Usage: scripts/dev-services.sh up|down|env|status|stop pg|ch|start pg|ch
#
#   up      install missing Debian packages (apt-get, root only), then start a
#           PostgreSQL 15 cluster and a ClickHouse server on 127.0.0.1, on free
#           TCP ports, with all data under one new temporary directory.
#           Idempotent: if the recorded servers answer, nothing is started.
#   down    stop both servers, remove the directory `up` created and the state
#           file. Succeeds when nothing is running.
#   env     print shell exports; use as: eval "$(scripts/dev-services.sh env)"
#   status  say what is running (exit 0 if both servers answer, 3 otherwise).
#   stop pg|ch, start pg|ch
#           stop one server keeping its data, and start it again on the same
#           port: fault tests use them to take a server away mid-run.
#
# Environment:
#   DBMETER_SERVICES_STATE  state file (default: one per checkout,
#                           /tmp/dbmeter-services.<hash of the checkout's path>.state,
#                           so `up` in two checkouts gives two pairs of servers
#                           and `down` in one leaves the other's running)
#   TMPDIR                  parent of the temporary directory (default /tmp)
#   DBMETER_SERVICES_KEEP_ON_FAILURE=1  keep the directory if `up` fails
#
# Progress goes to stderr; on failure one "dev-services: error: ..." line (plus
# the tail of the relevant server log) and a non-zero exit.
set -euo pipefail

PROG=dev-services

# default_state names the state file of the checkout this script is in: the
# first 12 hex digits of the sha256 of its absolute, symlink-free path. It is
# under /tmp (not TMPDIR, which may differ between two shells of one user),
# outside the checkout, so that git clean cannot lose a running pair.
default_state() {
    local root
    root=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P) || exit 1
    printf '/tmp/dbmeter-services.%s.state' "$(printf '%s' "$root" | sha256sum | cut -c1-12)"
}
STATE_FILE=${DBMETER_SERVICES_STATE:-$(default_state)}
MARKER=.dbmeter-services            # file proving a directory is ours to delete
DB_USER=dbmeter
DB_NAME=dbmeter
START_TIMEOUT=${DBMETER_SERVICES_TIMEOUT:-90}

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

usage() {
    echo "usage: $0 up|down|env|status" >&2
    exit 2
}

# ---------------------------------------------------------------------------
# state file: KEY=VALUE lines written by `up`
# ---------------------------------------------------------------------------
S_DIR='' S_PG_PORT='' S_PG_USER='' S_PG_BIN='' S_CH_TCP_PORT='' S_CH_HTTP_PORT=''
S_CH_USER='' S_CH_BIN='' S_PASSWORD='' S_RUN_PG_AS='' S_RUN_CH_AS=''

load_state() {
    [[ -f $STATE_FILE ]] || return 1
    local k v
    while IFS='=' read -r k v; do
        case $k in
            DIR|PG_PORT|PG_USER|PG_BIN|CH_TCP_PORT|CH_HTTP_PORT|CH_USER|CH_BIN|PASSWORD|RUN_PG_AS|RUN_CH_AS)
                printf -v "S_$k" '%s' "$v" ;;
        esac
    done <"$STATE_FILE"
    [[ -n $S_DIR ]]
}

write_state() {
    local tmp="${STATE_FILE}.tmp.$$"
    (
        umask 077
        {
            echo "DIR=$S_DIR"
            echo "PG_PORT=$S_PG_PORT"
            echo "PG_USER=$S_PG_USER"
            echo "PG_BIN=$S_PG_BIN"
            echo "CH_TCP_PORT=$S_CH_TCP_PORT"
            echo "CH_HTTP_PORT=$S_CH_HTTP_PORT"
            echo "CH_USER=$S_CH_USER"
            echo "CH_BIN=$S_CH_BIN"
            echo "PASSWORD=$S_PASSWORD"
            echo "RUN_PG_AS=$S_RUN_PG_AS"
            echo "RUN_CH_AS=$S_RUN_CH_AS"
        } >"$tmp"
    )
    mv -f "$tmp" "$STATE_FILE"
}

# serialize up/down so two concurrent callers do not race. The lock is taken
# on the state file's directory, so no lock file is left behind.
take_lock() {
    if have flock; then
        local d
        d=$(dirname -- "$STATE_FILE")
        exec 9<"$d" || die "cannot open $d for locking"
        flock -w 120 9 || die "could not lock $d (another dev-services.sh up/down running?)"
    fi
}

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
is_root() { [[ $(id -u) -eq 0 ]]; }

# run a command as another user (no-op when that user is us). fd 9 (the lock
# file) is closed so that servers started through here do not inherit the lock.
as_user() {
    local u=$1; shift
    if [[ $u == "$(id -un)" ]]; then
        "$@" 9>&-
    elif have setpriv; then
        setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups -- "$@" 9>&-
    elif have runuser; then
        runuser -u "$u" -- "$@" 9>&-
    else
        su -s /bin/sh "$u" -c "$(printf '%q ' "$@")" 9>&-
    fi
}

# print N distinct free TCP ports on 127.0.0.1
free_ports() {
    local n=$1
    if have python3 && python3 - "$n" <<'EOF' 2>/dev/null; then return 0; fi
import socket, sys
n = int(sys.argv[1])
socks = []
for _ in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()
EOF
    # fallback: random ports below the ephemeral range, checked with ss
    have ss || die "need python3 or ss to pick free ports"
    local out=() p tries=0
    while ((${#out[@]} < n)); do
        ((tries++ < 1000)) || die "could not find free ports"
        p=$((20000 + RANDOM % 12000))
        [[ " ${out[*]} " == *" $p "* ]] && continue
        [[ -z $(ss -Htan "sport = :$p" 2>/dev/null) ]] && out+=("$p")
    done
    echo "${out[*]}"
}

port_listening() {  # port_listening PORT -> 0 if something listens on 127.0.0.1:PORT
    if have ss; then
        [[ -n $(ss -Htln "sport = :$1" 2>/dev/null) ]]
    else
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
    fi
}

# http_get URL -> body on stdout; fails on non-2xx or connection error
http_get() {
    if have curl; then
        curl -fsS --max-time 10 "$1"
    else
        python3 - "$1" <<'EOF'
import sys, urllib.request
sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())
EOF
    fi
}

pid_alive() { [[ -n ${1:-} ]] && kill -0 "$1" 2>/dev/null; }

show_log_tail() {  # show_log_tail FILE...
    local f
    for f in "$@"; do
        [[ -s $f ]] || continue
        printf '%s: ---- last lines of %s ----\n' "$PROG" "$f" >&2
        tail -n 30 "$f" >&2 || true
    done
}

# ---------------------------------------------------------------------------
# installation
# ---------------------------------------------------------------------------
APT_UPDATED=0
apt_install() {
    is_root || die "missing packages ($*) and not root; install them with: apt-get install $*"
    have apt-get || die "missing packages ($*) and apt-get not available"
    export DEBIAN_FRONTEND=noninteractive
    local aptopts=(-y -q -o DPkg::Lock::Timeout=600 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
    if ((APT_UPDATED == 0)); then
        log "apt-get update"
        apt-get -q -o DPkg::Lock::Timeout=600 update </dev/null >&2 || die "apt-get update failed"
        APT_UPDATED=1
    fi
    log "apt-get install $*"
    apt-get install "${aptopts[@]}" --no-install-recommends "$@" </dev/null >&2 \
        || die "apt-get install $* failed"
}

# directory holding initdb, pg_ctl, postgres, psql, pgbench (PostgreSQL 15 preferred)
find_pg_bin() {
    local d=/usr/lib/postgresql/15/bin
    if [[ -x $d/initdb && -x $d/pg_ctl && -x $d/postgres && -x $d/psql ]]; then
        echo "$d"; return 0
    fi
    if have initdb && have pg_ctl; then
        # resolve symlinks (e.g. /usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb)
        d=$(dirname "$(readlink -f "$(command -v initdb)")")
        if [[ -x $d/pg_ctl && -x $d/postgres ]]; then echo "$d"; return 0; fi
    fi
    return 1
}

pg_tools_present() {
    local d
    d=$(find_pg_bin) || return 1
    [[ -x $d/pgbench ]] || have pgbench || return 1
    [[ -x $d/psql ]] || have psql || return 1
}

# prints the command (one word per line) that starts the ClickHouse server
find_ch_server() {
    local c
    for c in "$(command -v clickhouse-server 2>/dev/null || true)" /usr/sbin/clickhouse-server /usr/bin/clickhouse-server; do
        [[ -n $c && -x $c ]] && { echo "$c"; return 0; }
    done
    for c in "$(command -v clickhouse 2>/dev/null || true)" /usr/bin/clickhouse; do
        [[ -n $c && -x $c ]] && { printf '%s\nserver\n' "$c"; return 0; }
    done
    return 1
}

find_ch_client() {
    local c
    for c in "$(command -v clickhouse-client 2>/dev/null || true)" /usr/bin/clickhouse-client; do
        [[ -n $c && -x $c ]] && { echo "$c"; return 0; }
    done
    return 1
}

ensure_packages() {
    local want=()
    if ! pg_tools_present; then
        if have apt-cache && apt-cache show postgresql-15 >/dev/null 2>&1; then
            want+=(postgresql-15 postgresql-client-15)
        else
            want+=(postgresql postgresql-client)
        fi
    fi
    if ! find_ch_server >/dev/null || ! find_ch_client >/dev/null; then
        want+=(clickhouse-server clickhouse-client)
    fi
    if ((${#want[@]})); then
        apt_install "${want[@]}"
    fi
    pg_tools_present || die "PostgreSQL binaries (initdb, pg_ctl, postgres, psql, pgbench) not found after install"
    find_ch_server >/dev/null || die "ClickHouse server binary not found after install"
}

# system user to run a server as when we are root
ensure_run_user() {  # ensure_run_user PREFERRED -> prints user name
    local pref=$1
    if ! is_root; then id -un; return 0; fi
    if getent passwd "$pref" >/dev/null; then echo "$pref"; return 0; fi
    if ! getent passwd dbmeter >/dev/null; then
        log "creating system user dbmeter"
        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin dbmeter \
            || die "useradd dbmeter failed"
    fi
    echo dbmeter
}

# ---------------------------------------------------------------------------
# liveness checks
# ---------------------------------------------------------------------------
pg_psql() {  # pg_psql SQL...  (uses state variables)
    local psql=$S_PG_BIN/psql
    [[ -x $psql ]] || psql=psql
    PGPASSWORD=$S_PASSWORD PGCONNECT_TIMEOUT=5 "$psql" -X -q -A -t -v ON_ERROR_STOP=1 \
        -h 127.0.0.1 -p "$S_PG_PORT" -U "$S_PG_USER" "$@" </dev/null
}

pg_answers() {
    [[ -n $S_PG_PORT ]] || return 1
    [[ $(pg_psql -d "$DB_NAME" -c 'select 1' 2>/dev/null) == 1 ]]
}

ch_query_url() {  # ch_query_url SQL
    local q
    q=$(printf '%s' "$1" | sed 's/ /%20/g')
    printf 'http://127.0.0.1:%s/?user=%s&password=%s&query=%s' "$S_CH_HTTP_PORT" "$S_CH_USER" "$S_PASSWORD" "$q"
}

ch_answers() {
    [[ -n $S_CH_HTTP_PORT ]] || return 1
    [[ $(http_get "$(ch_query_url 'SELECT 1')" 2>/dev/null) == 1 ]]
}

ch_pid() {
    local ch=$S_DIR/ch f p cmdline
    # the launcher execs (setsid ->) setpriv -> clickhouse-server, so its pid is
    # normally the server's; 18.16 ignores --pid-file when not daemonized, so
    # fall back to scanning /proc for a process using our config file
    for f in "$ch/launcher.pid" "$ch/clickhouse-server.pid"; do
        p=$(tr -dc '0-9' 2>/dev/null <"$f" || true)
        [[ -n $p ]] || continue
        cmdline=$(tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline" || true)
        [[ $cmdline == *"--config-file=$ch/config.xml"* ]] && { echo "$p"; return 0; }
    done
    for f in /proc/[0-9]*/cmdline; do
        cmdline=$(tr '\0' ' ' 2>/dev/null <"$f" || true)
        if [[ $cmdline == *clickhouse* && $cmdline == *"--config-file=$ch/config.xml"* ]]; then
            p=${f#/proc/}; echo "${p%/cmdline}"; return 0
        fi
    done
    return 1
}

pg_pid() {
    local f=$S_DIR/pg/data/postmaster.pid p
    [[ -r $f ]] || return 1
    p=$(head -n1 "$f" | tr -dc '0-9')
    [[ -n $p ]] && pid_alive "$p" || return 1
    echo "$p"
}

# ---------------------------------------------------------------------------
# stop / cleanup
# ---------------------------------------------------------------------------
stop_pg() {
    local dir=$1 user=$2 bin=$3 p i
    [[ -f $dir/pg/data/postmaster.pid ]] || return 0
    if [[ -x $bin/pg_ctl ]]; then
        (cd "$dir" && as_user "${user:-$(id -un)}" "$bin/pg_ctl" stop -D "$dir/pg/data" -m fast -w -t 30 >/dev/null 2>&1) || true
    fi
    p=$(head -n1 "$dir/pg/data/postmaster.pid" 2>/dev/null | tr -dc '0-9' || true)
    if pid_alive "$p" && tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline" | grep -qF "$dir/pg/data"; then
        kill -TERM "$p" 2>/dev/null || true
        for ((i = 0; i < 50; i++)); do pid_alive "$p" || break; sleep 0.2; done
        pid_alive "$p" && kill -KILL "$p" 2>/dev/null || true
    fi
    return 0
}

stop_ch() {
    local p i
    p=$(ch_pid) || return 0
    kill -TERM "$p" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do pid_alive "$p" || return 0; sleep 0.2; done
    log "ClickHouse (pid $p) did not stop in 30s; killing"
    kill -KILL "$p" 2>/dev/null || true
    for ((i = 0; i < 25; i++)); do pid_alive "$p" || return 0; sleep 0.2; done
}

# stop everything recorded in the state variables and remove the directory
teardown() {
    if [[ -n $S_DIR && -d $S_DIR ]]; then
        stop_ch
        stop_pg "$S_DIR" "$S_RUN_PG_AS" "$S_PG_BIN"
        if [[ -f $S_DIR/$MARKER ]]; then
            rm -rf -- "$S_DIR"
        else
            log "not removing $S_DIR: it has no $MARKER marker"
        fi
    fi
    rm -f -- "$STATE_FILE"
}

# ---------------------------------------------------------------------------
# start
# ---------------------------------------------------------------------------
start_pg() {
    local dir=$S_DIR pgdir=$S_DIR/pg user=$S_RUN_PG_AS bin=$S_PG_BIN
    mkdir -p "$pgdir/sock"
    (umask 077; printf '%s\n' "$S_PASSWORD" >"$pgdir/pwfile")
    if is_root; then chown -R "$user:" "$pgdir"; fi
    chmod 700 "$pgdir"

    log "initdb (PostgreSQL $("$bin/postgres" --version | awk '{print $3}'), superuser $S_PG_USER, running as $user)"
    if ! (cd "$dir" && as_user "$user" "$bin/initdb" -D "$pgdir/data" -U "$S_PG_USER" \
            --pwfile="$pgdir/pwfile" --auth=scram-sha-256 --encoding=UTF8 --locale=C -N \
            >"$pgdir/initdb.log" 2>&1); then
        show_log_tail "$pgdir/initdb.log"
        die "initdb failed"
    fi
    rm -f "$pgdir/pwfile"
    # pg_stat_statements (in Debian's postgresql-15) must be preloaded for
    # dbmeter pg's server figures; track_io_timing gives its block times.
    printf "shared_preload_libraries = 'pg_stat_statements'\ntrack_io_timing = on\n" >>"$pgdir/data/postgresql.conf"

    log "starting PostgreSQL on 127.0.0.1:$S_PG_PORT"
    if ! (cd "$dir" && as_user "$user" "$bin/pg_ctl" start -D "$pgdir/data" -l "$pgdir/postgres.log" \
            -w -t "$START_TIMEOUT" \
            -o "-h 127.0.0.1 -p $S_PG_PORT -k $pgdir/sock -c unix_socket_permissions=0700" \
            >"$pgdir/pg_ctl.log" 2>&1 </dev/null); then
        show_log_tail "$pgdir/pg_ctl.log" "$pgdir/postgres.log"
        die "PostgreSQL did not start"
    fi
    # In template1, so that every database made afterwards (the tests' own
    # among them) has the extension's view.
    if ! pg_psql -d template1 -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >"$pgdir/createdb.log" 2>&1; then
        show_log_tail "$pgdir/createdb.log" "$pgdir/postgres.log"
        die "could not create the extension pg_stat_statements"
    fi
    if ! pg_psql -d postgres -c "CREATE DATABASE $DB_NAME" >>"$pgdir/createdb.log" 2>&1; then
        show_log_tail "$pgdir/createdb.log" "$pgdir/postgres.log"
        die "could not create database $DB_NAME"
    fi
    pg_answers || { show_log_tail "$pgdir/postgres.log"; die "PostgreSQL does not answer on 127.0.0.1:$S_PG_PORT"; }
}

write_ch_config() {
    local ch=$1
    cat >"$ch/config.xml" <<EOF
<?xml version="1.0"?>
<!-- written by scripts/dev-services.sh; throwaway server for dbmeter tests -->
<yandex>
    <logger>
        <level>information</level>
        <log>$ch/log/clickhouse-server.log</log>
        <errorlog>$ch/log/clickhouse-server.err.log</errorlog>
        <size>100M</size>
        <count>2</count>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$S_CH_HTTP_PORT</http_port>
    <tcp_port>$S_CH_TCP_PORT</tcp_port>
    <!-- no interserver_http_port / https_port / tcp_port_secure: those servers stay off -->
    <max_connections>1024</max_connections>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_concurrent_queries>100</max_concurrent_queries>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <mark_cache_size>268435456</mark_cache_size>
    <path>$ch/data/</path>
    <tmp_path>$ch/tmp/</tmp_path>
    <user_files_path>$ch/user_files/</user_files_path>
    <format_schema_path>$ch/format_schemas/</format_schema_path>
    <users_config>$ch/users.xml</users_config>
    <include_from>$ch/metrika.xml</include_from>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <mlock_executable>false</mlock_executable>
    <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
    <max_session_timeout>3600</max_session_timeout>
    <default_session_timeout>60</default_session_timeout>
    <dictionaries_config>$ch/*_dictionary.xml</dictionaries_config>
</yandex>
EOF
    local networks='<networks><ip>127.0.0.1</ip><ip>::1</ip></networks>'
    cat >"$ch/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
    <profiles>
        <default>
            <max_memory_usage>4000000000</max_memory_usage>
            <use_uncompressed_cache>0</use_uncompressed_cache>
            <load_balancing>random</load_balancing>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            $networks
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <$S_CH_USER>
            <password>$S_PASSWORD</password>
            $networks
            <profile>default</profile>
            <quota>default</quota>
        </$S_CH_USER>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
EOF
    printf '<?xml version="1.0"?>\n<yandex/>\n' >"$ch/metrika.xml"
}

start_ch() {
    local dir=$S_DIR ch=$S_DIR/ch user=$S_RUN_CH_AS i p='' cmd=()
    mapfile -t cmd < <(find_ch_server)
    mkdir -p "$ch/data" "$ch/tmp" "$ch/user_files" "$ch/format_schemas" "$ch/log"
    write_ch_config "$ch"
    if is_root; then chown -R "$user:" "$ch"; fi
    chmod 700 "$ch"

    log "starting ClickHouse (${cmd[*]}, running as $user) on 127.0.0.1: tcp $S_CH_TCP_PORT, http $S_CH_HTTP_PORT"
    (
        cd "$ch"
        export HOME=$ch
        pre=()
        if have setsid; then pre=(setsid); fi
        if [[ $user != "$(id -un)" ]]; then
            if have setpriv; then
                pre+=(setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups --)
            else
                pre+=(runuser -u "$user" --)
            fi
        fi
        exec "${pre[@]}" "${cmd[@]}" --config-file="$ch/config.xml" \
            --pid-file="$ch/clickhouse-server.pid" </dev/null >"$ch/log/stdout.log" 2>&1 9>&-
    ) &
    local launcher=$!
    echo "$launcher" >"$ch/launcher.pid"

    for ((i = 0; i < START_TIMEOUT * 4; i++)); do
        if ch_answers; then
            p=$(ch_pid || true)
            log "ClickHouse $(http_get "$(ch_query_url 'SELECT version()')" 2>/dev/null || echo '?') ready (pid ${p:-?})"
            return 0
        fi
        if ! pid_alive "$launcher" && ! ch_pid >/dev/null; then
            break
        fi
        sleep 0.25
    done
    show_log_tail "$ch/log/stdout.log" "$ch/log/clickhouse-server.err.log"
    if pid_alive "$launcher"; then
        die "ClickHouse did not answer SELECT 1 on 127.0.0.1:$S_CH_HTTP_PORT within ${START_TIMEOUT}s"
    fi
    die "ClickHouse server exited during startup"
}

# restart_pg starts the existing cluster again on its port (after `stop pg`).
restart_pg() {
    local pgdir=$S_DIR/pg
    log "starting PostgreSQL again on 127.0.0.1:$S_PG_PORT"
    if ! (cd "$S_DIR" && as_user "$S_RUN_PG_AS" "$S_PG_BIN/pg_ctl" start -D "$pgdir/data" -l "$pgdir/postgres.log" \
            -w -t "$START_TIMEOUT" \
            -o "-h 127.0.0.1 -p $S_PG_PORT -k $pgdir/sock -c unix_socket_permissions=0700" \
            >"$pgdir/pg_ctl.log" 2>&1 </dev/null); then
        show_log_tail "$pgdir/pg_ctl.log" "$pgdir/postgres.log"
        die "PostgreSQL did not start again"
    fi
}

# cmd_stop and cmd_start stop one server and start it again with its data,
# for tests of how dbmeter lives through a server outage.
cmd_stop() {
    load_state || die "services are not up; run: $0 up"
    case ${1:-} in
        pg) log "stopping PostgreSQL (data kept)"; stop_pg "$S_DIR" "$S_RUN_PG_AS" "$S_PG_BIN" ;;
        ch) log "stopping ClickHouse (data kept)"; stop_ch ;;
        *) die "stop what? pg or ch" ;;
    esac
}

cmd_start() {
    load_state || die "services are not up; run: $0 up"
    case ${1:-} in
        pg) pg_answers && return 0; restart_pg ;;
        ch) ch_answers && return 0; start_ch ;;
        *) die "start what? pg or ch" ;;
    esac
}

cmd_up() {
    take_lock
    if load_state; then
        if pg_answers && ch_answers; then
            log "already running (dir $S_DIR, PostgreSQL 127.0.0.1:$S_PG_PORT, ClickHouse tcp $S_CH_TCP_PORT http $S_CH_HTTP_PORT)"
            return 0
        fi
        log "stale state in $STATE_FILE (servers not answering); cleaning up"
        teardown
    fi

    ensure_packages
    S_PG_BIN=$(find_pg_bin)
    S_RUN_PG_AS=$(ensure_run_user postgres)
    S_RUN_CH_AS=$(ensure_run_user clickhouse)
    S_CH_BIN=$(find_ch_server | tr '\n' ' ')
    S_PG_USER=$DB_USER
    S_CH_USER=$DB_USER
    if have openssl; then
        S_PASSWORD="dbm-$(openssl rand -hex 12)"
    else
        S_PASSWORD="dbm-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
    fi
    local ports
    read -r -a ports <<<"$(free_ports 3)"
    ((${#ports[@]} == 3)) || die "could not pick free ports"
    S_PG_PORT=${ports[0]} S_CH_TCP_PORT=${ports[1]} S_CH_HTTP_PORT=${ports[2]}

    S_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dbmeter-services.XXXXXX") || die "mktemp failed"
    : >"$S_DIR/$MARKER"
    chmod 711 "$S_DIR"   # server users must traverse into their own subdirectories
    (umask 077; printf '%s\n' "$S_PASSWORD" >"$S_DIR/password")
    write_state
    log "data directory $S_DIR (state file $STATE_FILE)"

    # on any failure from here on: stop what was started, remove the directory
    trap 'rc=$?; if ((rc != 0)); then
            if [[ ${DBMETER_SERVICES_KEEP_ON_FAILURE:-0} == 1 ]]; then
                log "keeping $S_DIR for inspection (run down to remove)"
            else
                teardown
            fi
          fi' EXIT

    start_pg
    start_ch
    trap - EXIT
    log "up: PostgreSQL 127.0.0.1:$S_PG_PORT, ClickHouse tcp 127.0.0.1:$S_CH_TCP_PORT http 127.0.0.1:$S_CH_HTTP_PORT"
    log "use: eval \"\$($0 env)\""
}

cmd_down() {
    take_lock
    if ! load_state; then
        rm -f -- "$STATE_FILE"
        log "nothing running"
        return 0
    fi
    log "stopping services in $S_DIR"
    teardown
    log "down"
}

q() {  # single-quote for the shell
    printf "'%s'" "${1//\'/\'\\\'\'}"
}

cmd_env() {
    load_state || die "services are not up (no state in $STATE_FILE); run: $0 up"
    local pw=$S_PASSWORD
    echo "export DBMETER_SERVICES_DIR=$(q "$S_DIR")"
    echo "export DBMETER_PG_DSN=$(q "postgres://$S_PG_USER:$pw@127.0.0.1:$S_PG_PORT/$DB_NAME?sslmode=disable")"
    echo "export PGHOST=127.0.0.1"
    echo "export PGPORT=$S_PG_PORT"
    echo "export PGUSER=$(q "$S_PG_USER")"
    echo "export PGDATABASE=$(q "$DB_NAME")"
    echo "export PGPASSWORD=$(q "$pw")"
    local chdsn="tcp://127.0.0.1:$S_CH_TCP_PORT?username=$S_CH_USER&password=$pw&database=default"
    # DBMETER_CLICKHOUSE_DSN is what ch insert and ch query read without
    # --dsn; the tests name this 18.16 server DBMETER_CLICKHOUSE_LEGACY_DSN.
    echo "export DBMETER_CLICKHOUSE_DSN=$(q "$chdsn")"
    echo "export DBMETER_CLICKHOUSE_LEGACY_DSN=$(q "$chdsn")"
    echo "export DBMETER_CLICKHOUSE_HTTP_URL=$(q "http://127.0.0.1:$S_CH_HTTP_PORT")"
    echo "export DBMETER_CLICKHOUSE_TCP_ADDR=$(q "127.0.0.1:$S_CH_TCP_PORT")"
    echo "export DBMETER_CLICKHOUSE_USER=$(q "$S_CH_USER")"
    echo "export DBMETER_CLICKHOUSE_PASSWORD=$(q "$pw")"
}

cmd_status() {
    if ! load_state; then
        echo "not running (no state file $STATE_FILE)"
        return 3
    fi
    local ok=0 p
    echo "state file: $STATE_FILE"
    echo "directory:  $S_DIR"
    if pg_answers; then
        p=$(pg_pid || echo '?')
        echo "postgresql: running on 127.0.0.1:$S_PG_PORT (pid $p, user $S_PG_USER, database $DB_NAME)"
    else
        echo "postgresql: NOT answering on 127.0.0.1:$S_PG_PORT"; ok=3
    fi
    if ch_answers; then
        p=$(ch_pid || echo '?')
        echo "clickhouse: running $(http_get "$(ch_query_url 'SELECT version()')" 2>/dev/null || echo '?') on 127.0.0.1 tcp $S_CH_TCP_PORT http $S_CH_HTTP_PORT (pid $p, user $S_CH_USER)"
    else
        echo "clickhouse: NOT answering on 127.0.0.1:$S_CH_HTTP_PORT"; ok=3
    fi
    return $ok
}

main() {
    (($# >= 1)) || usage
    case $1 in
        up) cmd_up ;;
        down) cmd_down ;;
        env) cmd_env ;;
        status) cmd_status ;;
        stop) cmd_stop "${2:-}" ;;
        start) cmd_start "${2:-}" ;;
        -h|--help|help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' ;;
        *) usage ;;
    esac
}

main "$@"
