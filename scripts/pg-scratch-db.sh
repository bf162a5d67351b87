# pg-scratch-db.sh - sourced, not run, by the scripts that put dbmeter pg
# beside pgbench: it checks their tools, finds the server (DBMETER_PG_DSN,
# a postgres:// URL, else the dev-services cluster) and sets work (a
# temporary directory), db and dsn (a database of the caller's own, named
# after it and the pid, which the caller creates); both go at exit. The
# caller sets script to its name first, and is left in the tree's root.

die() { echo "$script: error: $*" >&2; exit 1; }
for tool in pgbench psql jq /usr/bin/time go; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [[ -z ${DBMETER_PG_DSN:-} ]]; then
    env_out=$(scripts/dev-services.sh env) || die "no DBMETER_PG_DSN and the dev-services cluster is not up: run scripts/dev-services.sh up"
    eval "$env_out"
fi
[[ $DBMETER_PG_DSN == postgres://* || $DBMETER_PG_DSN == postgresql://* ]] || die "DBMETER_PG_DSN must be a postgres:// URL"

work=$(mktemp -d)
db=dbmeter_${script//-/_}_$$
base=${DBMETER_PG_DSN%%\?*}
query=${DBMETER_PG_DSN#"$base"}
dsn="${base%/*}/$db$query"
cleanup() {
    psql -q "$DBMETER_PG_DSN" -c "drop database if exists $db with (force)" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
