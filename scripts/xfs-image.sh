#!/usr/bin/env bash
# Makes an xfs filesystem in a sparse image file and mounts it, for
# `dbmeter kv --dir` on a filesystem that shares blocks between files
# (reflink): a cell's copy of a preloaded store of millions of keys is then
# a clone, no bytes copied (docs/storage.md, "kv at a million keys").
# Needs root. Safe to run again.
#
#   scripts/xfs-image.sh up MOUNTPOINT [SIZE]   # SIZE for truncate, default 40G
#   scripts/xfs-image.sh down MOUNTPOINT        # unmount, remove the image
set -euo pipefail

usage() { echo "usage: scripts/xfs-image.sh up MOUNTPOINT [SIZE] | down MOUNTPOINT" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
mnt=$2
img="${mnt%/}.xfs.img"

case $1 in
up)
	command -v mkfs.xfs >/dev/null || { echo "xfs-image: mkfs.xfs not found: install xfsprogs (apt-get install xfsprogs, or scripts/deps.sh test)" >&2; exit 1; }
	if mountpoint -q "$mnt"; then
		echo "xfs-image: $mnt is already mounted" >&2
		exit 0
	fi
	mkdir -p "$mnt"
	[[ -e $img ]] || { truncate -s "${3:-40G}" "$img" && mkfs.xfs -q -m reflink=1 "$img"; }
	mount -o loop "$img" "$mnt"
	echo "xfs-image: $img mounted at $mnt (reflink); give it to dbmeter kv --dir $mnt/run" >&2
	;;
down)
	if mountpoint -q "$mnt"; then umount "$mnt"; fi
	rm -f "$img"
	rmdir "$mnt" 2>/dev/null || true
	;;
*) usage ;;
esac
