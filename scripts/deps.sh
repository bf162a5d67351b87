#!/usr/bin/env bash
# Installs the Debian packages dbmeter's build needs (scripts/deps.sh, as
# make build runs it), or its build and tests (scripts/deps.sh test, as
# make test runs it), only those missing. Safe to run again. Needs root (or
# sudo) on Debian/Ubuntu.
set -euo pipefail

# seasclick_source prints the directory of the SeasClick source snapshot
# (../shared/third_party/SeasClick, not part of the repository): in
# $DBMETER_THIRD_PARTY, beside this checkout, beside the main checkout of a
# linked worktree, or beside the local repository (or its main checkout)
# this one was cloned from: CI's clean clone. It fails when there is none.
seasclick_source() {
	local dirs=() checkouts checkout common origin dir
	checkouts=("$(cd "$(dirname "$0")/.." && pwd)")
	origin=$(git -C "${checkouts[0]}" config --get remote.origin.url 2>/dev/null) && [[ -d $origin ]] &&
		checkouts+=("$origin")
	[[ -n ${DBMETER_THIRD_PARTY:-} ]] && dirs+=("$DBMETER_THIRD_PARTY")
	for checkout in "${checkouts[@]}"; do
		dirs+=("$checkout/../shared/third_party")
		common=$(git -C "$checkout" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) &&
			dirs+=("$(dirname "$common")/../shared/third_party")
	done
	for dir in "${dirs[@]}"; do
		[[ -f $dir/SeasClick/config.m4 ]] && { (cd "$dir/SeasClick" && pwd); return 0; }
	done
	return 1
}
# --seasclick-source: only print where the snapshot is found (a check of
# the search from a clone or worktree); installs nothing.
if [[ ${1:-} == --seasclick-source ]]; then
	seasclick_source || { echo "deps: no SeasClick source snapshot found (../shared/third_party/SeasClick beside the checkout, or \$DBMETER_THIRD_PARTY)" >&2; exit 1; }
	exit 0
fi

pkgs=(
	librocksdb-dev    # rocksdb engine (cgo, build tag rocksdb)
	build-essential   # cgo
)
test_pkgs=(
	chromium          # headless browser: the HTML report test renders the report in it
	fonts-noto-cjk    # the studies' Chinese titles (seeds 003, 004) in the rendered study page
	xfsprogs          # mkfs.xfs: scripts/xfs-image.sh and the kv reflink-copy test make an xfs image
)
case "${1:-build}" in
build) ;;
test) pkgs+=("${test_pkgs[@]}") ;;
*) echo "usage: scripts/deps.sh [build|test]" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	echo "deps: installing ${missing[*]}" >&2
	sudo=""
	[[ $(id -u) -eq 0 ]] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The build needs nothing more.
[[ ${1:-build} == test ]] || exit 0

# External-language ClickHouse clients (docs/worker-protocol.md), for the
# tests: PHP 8.2 and Python's clickhouse-driver come from Debian; SeasClick
# does not. Users run `pecl install SeasClick`; this project's tests build
# the Apache-2.0 snapshot in ../shared/third_party/SeasClick (in a copy),
# only when PHP lacks it.
ext_pkgs=(php8.2-cli php8.2-dev python3-clickhouse-driver python3-lz4 python3-pip)
ext_missing=()
for p in "${ext_pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || ext_missing+=("$p")
done
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
if ((${#ext_missing[@]})); then
	echo "deps: installing ${ext_missing[*]}" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${ext_missing[@]}" >/dev/null
fi
# clickhouse-driver compresses (a DSN's compress=lz4) only with lz4, from
# Debian, and clickhouse-cityhash, which Debian does not ship: a pinned
# wheel from PyPI into Debian's python3, which the Python worker runs.
if ! /usr/bin/python3 -c 'import clickhouse_cityhash' 2>/dev/null; then
	echo "deps: installing clickhouse-cityhash 1.0.2.6 from PyPI for Debian's python3" >&2
	$sudo env PIP_ROOT_USER_ACTION=ignore /usr/bin/python3 -m pip install -q --break-system-packages --only-binary=:all: clickhouse-cityhash==1.0.2.6
fi
if ! php -r 'exit(extension_loaded("SeasClick") ? 0 : 1);' 2>/dev/null; then
	if ! src=$(seasclick_source); then
		echo "deps: the SeasClick PHP extension is missing and no source snapshot was found (../shared/third_party/SeasClick beside the checkout, or \$DBMETER_THIRD_PARTY): install it with 'pecl install SeasClick' and enable it in PHP's ini" >&2
	else
		echo "deps: building SeasClick from $src" >&2
		build=$(mktemp -d)
		trap 'rm -rf "$build"' EXIT
		cp -r "$src/." "$build"
		(cd "$build" && phpize >/dev/null 2>&1 && ./configure -q >/dev/null && make -s -j"$(nproc)" >/dev/null 2>&1 && $sudo make -s install >/dev/null)
		echo "extension=SeasClick.so" | $sudo tee /etc/php/8.2/mods-available/seasclick.ini >/dev/null
		$sudo phpenmod -v 8.2 -s cli seasclick
		php -r 'exit(extension_loaded("SeasClick") ? 0 : 1);' || { echo "deps: SeasClick built but PHP does not load it" >&2; exit 1; }
	fi
fi
