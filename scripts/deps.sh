#!/usr/bin/env bash
# Installs the Debian packages dbmeter's build needs (scripts/deps.sh, as
# make build runs it), or its build and tests (scripts/deps.sh test, as
# make test runs it), only those missing. Safe to run again. Needs root (or
# sudo) on Debian/Ubuntu.
set -euo pipefail

pkgs=(
	librocksdb-dev    # rocksdb engine (cgo, build tag rocksdb)
	build-essential   # cgo
)
test_pkgs=(
	chromium          # headless browser: the HTML report test renders the report in it
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

# External-language ClickHouse clients (docs/worker-protocol.md): PHP 8.2 and
# Python's clickhouse-driver come from Debian; SeasClick does not. Users run
# `pecl install SeasClick`; this project's tests build the Apache-2.0 snapshot
# in ../shared/third_party/SeasClick (in a copy), only when PHP lacks it.
ext_pkgs=(php8.2-cli php8.2-dev python3-clickhouse-driver)
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
if ! php -r 'exit(extension_loaded("SeasClick") ? 0 : 1);' 2>/dev/null; then
	# The snapshot sits beside the repository (../shared/third_party);
	# DBMETER_THIRD_PARTY names another place.
	src="${DBMETER_THIRD_PARTY:-$(cd "$(dirname "$0")/.." && pwd)/../shared/third_party}/SeasClick"
	if [[ ! -f $src/config.m4 ]]; then
		echo "deps: the SeasClick PHP extension is missing: install it with 'pecl install SeasClick' (and enable it in PHP's ini)" >&2
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
