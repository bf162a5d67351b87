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
