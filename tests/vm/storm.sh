#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Migration storm: migcheck runs back to back (mixed folio sizes, writers
# and readers in the moved process; every second run exchanges pairs of
# folios across the nodes, where the kernel can) while the engine is switched between
# cpu and mtcopy, mtcopy's thread count changes, and the mtcopy module is
# unloaded and reloaded, also while it is the active engine. Every migcheck
# run must find its data intact; dmesg.sh, run after all tests, fails on
# any warning or oops this caused.
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
set -u
secs=${MEMACCEL_STORM_SECONDS:-60}
ktap_plan 3
require "mtcopy module" modprobe mtcopy
restore $MO/batch_min $MO/engine $MO/reasons $MO/batch_max
at_exit modprobe -r mtcopy
at_exit write_value $MO/engine cpu
echo all >$MO/reasons
echo 2048 >$MO/batch_max
storm_start storm
switches=0 reloads=0 end=$(( $(date +%s) + secs ))
while [ "$(date +%s)" -lt "$end" ]; do
	for t in 1 2 4 3; do
		echo mtcopy >$MO/engine 2>/dev/null && switches=$((switches + 1))
		echo $t >$MTCOPY/threads 2>/dev/null
		sleep 0.3
	done
	echo cpu >$MO/engine && switches=$((switches + 1))
	sleep 0.2
	echo mtcopy >$MO/engine && switches=$((switches + 1))
	sleep 0.2
	# unload while mtcopy is active: the core falls back to cpu first
	modprobe -r mtcopy && reloads=$((reloads + 1))
	modprobe mtcopy
done
storm_stop
xok=0
storm_exchanged || xok=1
echo "storm: ${secs}s, $STORM_RUNS migcheck runs ($STORM_XRUNS exchanging, $STORM_XPAGES pages exchanged), $switches engine switches, $reloads mtcopy unloads; stats: $(mo_stats)" | ktap_diag
ktap_check "storm: engines switched and mtcopy reloaded while migrating and exchanging" \
	test "$reloads" -gt 0 -a "$switches" -gt 2 -a "$STORM_RUNS" -gt 0 -a "$xok" = 0
ktap_check "storm: engine back to cpu and usable" \
	bash -c "echo cpu >$MO/engine && grep -q '\[cpu\]' $MO/engine && $MIGCHECK --size 4096 --total 2M --moves 2 --strict-moves"
ktap_finished
