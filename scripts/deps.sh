#!/usr/bin/env bash
# Installs the Debian packages dbmeter's build and tests need, only those
# missing. Safe to run again. Needs root (or sudo) on Debian/Ubuntu.
set -euo pipefail

pkgs=(
	librocksdb-dev    # rocksdb engine (cgo, build tag rocksdb)
	build-essential   # cgo
	chromium          # headless browser: the HTML report test renders the report in it
)
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
