#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/mtcopy-state.sh (issue 12): where mtcopy's slow
# state at 2 MB comes from. mtcopy with 2 threads is measured first after
# boot, then per round: 4 x 2 MB folios moved under mtcopy-2T and under cpu
# (interleaved, 3 repetitions each, migbench table b), the tlbskew probe on
# each CPU, then one move of 64K folios (which flipped the state back in
# the issue's boot 4) and the probe again. Trace events stay on for the
# whole run (switching them patches text, see bench/phases.sh; only
# tracing_on goes on and off, around each measured move): the
# workqueue events time mtcopy's helper work, sched/ipi/tlb events show
# what reached the helper CPU.
#   bench/mtcopy-state.sh OUTDIR TLBSKEW_KO [ROUNDS]     (default 3)
# MTCOPY_STATE_COUNTS: table b's folio counts (default 4); the placement
# of 2 MB frames is held as by bench/engines.sh (MIGBENCH_PLACEMENT).
. "$(dirname "$0")/../tests/vm/lib/engines.sh"
. "$(dirname "$0")/placement.sh"
set -eu
out=$1
ko=$2
rounds=${3:-3}
mb=$TOP/tools/migbench/migbench
mkdir -p "$out"
insmod "$ko"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
[ -e $TRACEFS/trace ] || mount -t tracefs nodev $TRACEFS
echo 0 >$TRACEFS/tracing_on
echo 16384 >$TRACEFS/buffer_size_kb
for ev in workqueue/workqueue_queue_work workqueue/workqueue_execute_start \
	workqueue/workqueue_execute_end sched/sched_wakeup sched/sched_switch \
	ipi/ipi_send_cpu ipi/ipi_send_cpumask tlb/tlb_flush migrate/mm_migrate_batch \
	migrate/mm_migrate_offload_copy; do
	echo 1 >"$TRACEFS/events/$ev/enable"
done
echo all >$MO/reasons
probe() {
	local cpu
	for cpu in 0 1; do
		echo "$cpu" >/sys/kernel/debug/tlbskew/run
		echo "$1 $(cat /sys/kernel/debug/tlbskew/run)" | tee -a "$out/tlbskew.txt"
	done
}
probe boot
# The 2 MB frames held as in make demo (MIGBENCH_PLACEMENT=any: not), so
# that a slow state seen here is not the aliasing the holder removes.
trap placement_release EXIT
placement_hold
for r in $(seq 1 "$rounds"); do
	for e in mtcopy-2 cpu; do
		mo_select "$e" >/dev/null
		: >$TRACEFS/trace
		echo 1 >$TRACEFS/tracing_on
		"$mb" --tables b --counts "${MTCOPY_STATE_COUNTS:-4}" --reps 3 --csv "$out/state.csv" \
			--label "$e r$r 2M"
		# Stopped first: reading the buffer while it records its own
		# reader (9p I/O, IPIs, flushes) never reaches its end
		echo 0 >$TRACEFS/tracing_on
		cat $TRACEFS/trace >"$out/trace-r$r-$e-2M.txt"
	done
	probe "r$r after-2M"
	mo_select mtcopy-2 >/dev/null
	"$mb" --tables a --sizes 64K --reps 1 --csv "$out/state.csv" \
		--label "mtcopy-2 r$r 64K" >/dev/null
	probe "r$r after-64K"
done
echo 0 >$TRACEFS/tracing_on
echo cpu >$MO/engine
