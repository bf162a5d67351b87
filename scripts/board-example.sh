#!/usr/bin/env bash
# scripts/board-example.sh [OUTDIR] — the study board's example
# (docs/board/): `dbmeter study run s5 --quick` on one machine made into
# six differently constrained "machines", one at a time, each published
# (dbmeter study publish --label) into OUTDIR, then the board of them.
#
#   plain          nothing limited
#   cpu-1core      cgroup v1: cpuset cpus=0, cpu.cfs_quota_us 10 ms of 10 ms
#   cpu-0.5core    cgroup v1: cpuset cpus=0, cpu.cfs_quota_us 5 ms of 10 ms
#   hdd            cgroup v1 blkio throttle on the disk under TMPDIR, at the
#                  hdd profile's limits (150 IOs/s each way, 200 MiB/s)
#   provisioned    the same at the provisioned profile's limits (16 % of the
#                  IOs/s this device delivers, as dbmeter's probe measures it)
#   hog            one busy loop (sh) beside the run, for its whole length
#
# Needs root and cgroup v1's cpu, cpuset and blkio controllers mounted under
# /sys/fs/cgroup (it says which is missing). Each run takes 5-10 minutes and
# loads the machine: run it on a quiet one. MACHINES="plain hdd" runs some;
# STUDY=FILE runs another study than s5 (a small one, to try the script). A
# machine whose limits cannot be set is skipped with one line, and a run
# that fails is published with its failed steps; the rest go on.
#
#   DBMETER=bin/dbmeter scripts/board-example.sh docs/board
set -euo pipefail

bin=${DBMETER:-bin/dbmeter}
out=${1:-docs/board}
machines=${MACHINES:-plain cpu-1core cpu-0.5core hdd provisioned hog}
study=${STUDY:-s5}
cg=/sys/fs/cgroup
name=dbmeter-board-$$
raw=$(mktemp -d)
mkdir -p "$out"

for c in cpu cpuset blkio; do
	[ -d "$cg/$c" ] || { echo "board-example: cgroup v1 controller $c is not mounted at $cg/$c (mount -t cgroup -o $c cgroup $cg/$c)" >&2; exit 1; }
done

hog=
cleanup() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null
	for c in cpu cpuset blkio; do
		[ -d "$cg/$c/$name" ] && rmdir "$cg/$c/$name" 2>/dev/null || true
	done
	rm -rf "$raw"
}
trap cleanup EXIT

# disk is major:minor of the whole disk under TMPDIR (kv's data directory).
disk() {
	local src dev parent
	src=$(df --output=source "${TMPDIR:-/tmp}" | tail -1)
	dev=$(basename "$(readlink -f "$src")")
	parent=$(basename "$(readlink -f "/sys/class/block/$dev/..")")
	[ -e "/sys/class/block/$parent/dev" ] && dev=$parent
	cat "/sys/class/block/$dev/dev"
}

# limit makes the cgroups of one machine and writes its limits.
limit() {
	local m=$1 d
	for c in cpu cpuset blkio; do mkdir -p "$cg/$c/$name"; done
	cat "$cg/cpuset/cpuset.cpus" >"$cg/cpuset/$name/cpuset.cpus"
	cat "$cg/cpuset/cpuset.mems" >"$cg/cpuset/$name/cpuset.mems"
	echo -1 >"$cg/cpu/$name/cpu.cfs_quota_us"
	echo 100000 >"$cg/cpu/$name/cpu.cfs_period_us"
	d=$(disk)
	for f in read_iops_device write_iops_device read_bps_device write_bps_device; do
		echo "$d 0" >"$cg/blkio/$name/blkio.throttle.$f"
	done
	case $m in
	cpu-1core | cpu-0.5core)
		echo 0 >"$cg/cpuset/$name/cpuset.cpus"
		# A 10 ms period, not the default 100 ms: the machine reference's
		# CPU loop is a 4-6 ms piece of work (docs/machine.md), which a
		# 50 ms quota of a 100 ms period never throttles; half of 10 ms
		# does, as it does the engines.
		echo 10000 >"$cg/cpu/$name/cpu.cfs_period_us"
		if [ "$m" = cpu-1core ]; then echo 10000; else echo 5000; fi >"$cg/cpu/$name/cpu.cfs_quota_us"
		;;
	hdd)
		throttle "$d" 150 150 $((200 << 20)) $((200 << 20))
		;;
	provisioned)
		# dbmeter's own probe of the device, under the provisioned
		# profile, gives the limits (16 % of the measured IOs/s). The
		# probe runs outside the machine's cgroups: it measures the free
		# device. Each command is checked, as errexit does not hold in a
		# function called from a condition.
		local lim riops wiops
		"$bin" kv --storage-profile provisioned --engines map --ops set --count 10 --quiet --json "$raw/probe.json" >/dev/null || return 1
		lim=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["env"]["disk"]["storage"]["limits"])' "$raw/probe.json") || return 1
		riops=$(sed -n 's/.*riops=\([0-9]*\).*/\1/p' <<<"$lim")
		wiops=$(sed -n 's/.*wiops=\([0-9]*\).*/\1/p' <<<"$lim")
		if [ -z "$riops" ] || [ -z "$wiops" ]; then
			echo "board-example: provisioned: no riops and wiops in the profile's limits ($lim)" >&2
			return 1
		fi
		echo "board-example: provisioned limits $lim" >&2
		throttle "$d" "$riops" "$wiops" 0 0 || return 1
		;;
	esac
}

throttle() {
	local d=$1
	echo "$d $2" >"$cg/blkio/$name/blkio.throttle.read_iops_device"
	echo "$d $3" >"$cg/blkio/$name/blkio.throttle.write_iops_device"
	echo "$d $4" >"$cg/blkio/$name/blkio.throttle.read_bps_device"
	echo "$d $5" >"$cg/blkio/$name/blkio.throttle.write_bps_device"
}

for m in $machines; do
	if ! limit "$m"; then
		echo "board-example: $m: its limits could not be set: skipped" >&2
		continue
	fi
	hog=
	if [ "$m" = hog ]; then
		sh -c 'while :; do :; done' &
		hog=$!
	fi
	echo "board-example: $m: study run $study --quick ($(date -u +%H:%M:%S))" >&2
	# The shell moves itself into the cgroups, then becomes dbmeter.
	sh -c 'for c in cpu cpuset blkio; do echo $$ >"$1/$c/$2/cgroup.procs"; done; shift 2; exec "$@"' \
		sh "$cg" "$name" "$bin" study run "$study" --quick --json "$raw/$m.json" >"$raw/$m.out" 2>"$raw/$m.err" || echo "board-example: $m: study run exited $? (its document says which step failed)" >&2
	if [ -n "$hog" ]; then kill "$hog" && hog=; fi
	"$bin" study publish "$raw/$m.json" -o "$out/$m.json.gz" --label "$m" ||
		echo "board-example: $m: not published (its run's last lines: $(tail -3 "$raw/$m.err" | tr '\n' ' '))" >&2
done

"$bin" study board "$out" --html "$out/board.html" --md "$out/board.md" --baseline plain \
	--note "These machines are constrained runs of one machine (a 2-core VM), made one after the other by scripts/board-example.sh: cgroup CPU limits (a cpuset of one CPU; CFS quota 1 core and 0.5 core), block-device throttles at the hdd and provisioned profiles' limits, and a CPU hog beside the run. They show what the board does with machines that differ; they are not different hardware."
