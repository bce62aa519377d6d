#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of make bench-phases: where the time of a migration goes.
# For each repetition, folio size and engine (interleaved: every engine runs
# once per size before the next repetition), one move_pages(2) of TOTAL
# bytes node 0 -> node 1 by migbench with trace event mm_migrate_batch on;
# the phase times of every batch of the move are summed. A memcpy node 0 ->
# node 1 of the same size is timed beside each size in each repetition.
#   bench/phases.sh CSV [REPS] [TOTAL]      (defaults 7, 32M)
# CSV rows: rep,folio_size_B,engine,move_wall_s,batches,folios,unmap_ns,
# flush_ns,copy_ns,move_ns,memcpy_wall_s,memcpy_B; scripts/results.py phases
# renders them. Engines: cpu (the vanilla path: batch copy off, the
# move phase copies), mtcopy-1 (the batch path, the migrating thread copies
# ahead), mtcopy-2, dcbm-2 (2 swdma channels, plain CPU copy in kthreads).
. "$(dirname "$0")/../tests/vm/lib/engines.sh"
set -eu
csv=$1
reps=${2:-7}
total=${3:-32M}
sizes="4096 65536 2097152"
engines="cpu mtcopy-1 mtcopy-2 dcbm-2"
mb=$TOP/tools/migbench/migbench
tmp=/tmp/phases.$$
echo all >$MO/reasons
echo 512 >$MO/batch_max
# The event stays on for the whole run: enabling it patches kernel text,
# and QEMU's multi-threaded TCG can trap on a stale int3 while text is
# patched (it did, switching the event on and off around every move).
trace_events on mm_migrate_batch
[ -f "$csv" ] || echo "rep,folio_size_B,engine,move_wall_s,batches,folios,unmap_ns,flush_ns,copy_ns,move_ns,memcpy_wall_s,memcpy_B" >"$csv"
# col FILE TABLE NAME: column NAME of the last TABLE row of a migbench CSV
col() {
	awk -F, -v t="$2" -v n="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$2 == t { v = $c[n] }
	END { print v }' "$1"
}
for rep in $(seq 1 "$reps"); do
	for size in $sizes; do
		"$mb" --tables limit --threads 1 --total "$total" --reps 1 \
			--csv $tmp.limit --label limit >/dev/null
		limit_s=$(col $tmp.limit limit wall_s)
		limit_b=$(col $tmp.limit limit moved_B)
		rm -f $tmp.limit
		for e in $engines; do
			mo_select "$e" >/dev/null
			# Every batch to the engine, whatever its own minimum
			echo 1 >$MO/batch_min
			: >$TRACEFS/trace
			"$mb" --tables a --sizes "$size" --total "$total" --reps 1 \
				--csv $tmp.csv --label "$e" >/dev/null
			move_s=$(col $tmp.csv a wall_s)
			rm -f $tmp.csv
			grep 'mm_migrate_batch: reason=syscall_or_cpuset' $TRACEFS/trace |
			awk -v rep="$rep" -v size="$size" -v e="$e" -v s="$move_s" \
				-v ls="$limit_s" -v lb="$limit_b" '
			{
				for (i = 1; i <= NF; i++) {
					split($i, kv, "=")
					v[kv[1]] += kv[2]
				}
				n++
			}
			END {
				printf "%s,%s,%s,%s,%d,%d,%.0f,%.0f,%.0f,%.0f,%s,%s\n", rep, size, e, s, n,
					v["folios"], v["unmap_ns"], v["flush_ns"], v["copy_ns"],
					v["move_ns"], ls, lb
			}' >>"$csv"
			tail -1 "$csv"
		done
	done
done
trace_events off mm_migrate_batch
echo cpu >$MO/engine
