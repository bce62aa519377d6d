#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: run.sh's TESTS (e.g. mm:thp@mtcopy-2+tiering, once) with
# buddyinfo, THP and compaction counters and per-node free/huge memory
# logged every 2 s to OUT/mon.log: for the khugepaged failure beside
# tiering (issue 14, open):
#   scripts/vm-run --topology 4node-tiered --xdir X --rwdir build/kselftest \
#       --timeout 1500 -- kernel/wip/experiments/thp-beside-tiering.sh X TESTS...
out=$(realpath -m "$1")
shift
mkdir -p "$out"
(
	while :; do
		{
			echo "== $(date +%s) $(cat /proc/uptime)"
			cat /proc/buddyinfo
			grep -E "thp_fault|thp_collapse|compact_(stall|fail|success)|pgdemote|pgpromote_success|pgexchange_success|oom_kill|nr_isolated" /proc/vmstat | paste -sd' '
			for n in 0 1 2 3; do echo "node$n $(grep -E 'MemFree|AnonHuge|HugePages_Total|HugePages_Free' /sys/devices/system/node/node$n/meminfo | awk '{print $3"="$4}' | paste -sd' ')"; done
		} >>"$out/mon.log"
		sleep 2
	done
) &
mon=$!
cd "$(dirname "$0")/../../.." || exit 1
MEMACCEL_MM_ATTEMPTS=1 env MEMACCEL_TOPOLOGY=4node-tiered tests/vm/run.sh "$out/ktap" "$@"
rc=$?
kill $mon
exit $rc
