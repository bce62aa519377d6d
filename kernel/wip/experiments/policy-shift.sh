#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: bench/tiering.sh's policy configuration (TIERBENCH_RUNS
# runs, default 2) with node 0's and node 2's anon LRU sizes, the policy's
# stats and kswapd/demotion counters logged every second to OUT/mon.log.
# Used to find why the policy stopped moving after two shifts (patch 38):
#   scripts/vm-run --kernel build/kbuild-bench --topology 4node-tiered \
#       --xdir X --timeout 800 -- kernel/wip/experiments/policy-shift.sh X
out=$(realpath -m "$1")
mkdir -p "$out"
MO=/sys/kernel/mm/migrate_offload
(
	while :; do
		{
			printf '%s ' "$(cut -d' ' -f1 /proc/uptime)"
			for n in 0 2; do printf 'n%s:%s ' $n "$(awk '/Active\(anon\)|Inactive\(anon\)|MemFree/ {printf "%s=%d,", $3, $4/1024}' /sys/devices/system/node/node$n/meminfo)"; done
			for f in policy_intervals policy_scanned policy_hot policy_promoted policy_exchanged promote_no_partner promote_failed; do printf '%s=%s ' $f "$(cat $MO/tiering/stats/$f)"; done
			grep -E '^(pageoutrun|pgdemote_kswapd|pgrefill|pgexchange_success) ' /proc/vmstat | tr ' ' '=' | paste -sd' '
		} >>"$out/mon.log"
		sleep 1
	done
) &
mon=$!
cd "$(dirname "$0")/../../.." || exit 1
TIERBENCH_RUNS=${TIERBENCH_RUNS:-2} bench/tiering.sh "$out/tiering" policy
kill $mon
