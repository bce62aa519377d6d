#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of make demo on the patched kernel: migbench under each
# migration copy engine, interleaved at the level of single repetitions
# (repetition 1 of every engine, then repetition 2, ...), so that a slow
# spell of the host hits every engine alike. Rows go to CSV with the
# engine as label; CSV is this script's own file and starts empty, so a
# guest command that vm-run runs again after a crash leaves no rows of the
# crashed attempt.
#   bench/engines.sh CSV SPEC... (SPEC: cpu | mtcopy-N | mtcopy-Ns |
#   mtcopy-Nw | dcbm-N | dcbm-Ns, see mo_select in tests/vm/lib/engines.sh;
#   labels cpu, mtcopy-NT (split_folios at its default, Y),
#   mtcopy-NT-split, mtcopy-NT-whole, dcbm-N and dcbm-N-staging); a SPEC
#   may end in :TABLES, the tables for that engine only (dcbm-1s:x).
#   MIGBENCH_ARGS: extra migbench arguments; its --reps N (default 5) is
#   the number of rounds. MIGBENCH_TABLES: the tables [limit,a,b,first,x]
#   (x: exchange against two migrations; every engine's swap, or the CPU's
#   for an engine without one). MIGBENCH_PLACEMENT: see bench/placement.sh.
# With table x or xfull, trace event mm_exchange_batch is on for the whole
# run, and the phases of every exchange batch (lock and unmap, TLB flush,
# freeze, data swap, identity swap and remap) are summed per round, engine
# and folio size into CSV.xphases (both tables together if both run); the
# end prints them per pair (sums printed with %.0f: mawk's %d stops at
# 2^31 - 1, 2.1 s of nanoseconds). With table xfull (DST kept full by migbench),
# watermark boosting and proactive compaction are off for the run, so
# that neither moves DST's low watermark or its free memory between the
# fill and the timed call, and every per-CPU page list is held at its
# floor of 4 batches (vm.percpu_pagelist_high_fraction=100000: any zone
# under 96 GiB gets the floor; a fixed fraction also stops the lists'
# auto-tuning, which otherwise lets one CPU's list hold up to 1/8 of a
# zone as free pages the free count does not show, and moves migbench's
# guard between reads); all three are restored at the end.
. "$(dirname "$0")/../tests/vm/lib/engines.sh"
. "$(dirname "$0")/placement.sh"
set -eu
csv=$1
shift
rm -f "$csv"
read -ra args <<<"${MIGBENCH_ARGS:-}"
reps=5 rest=()
for ((i = 0; i < ${#args[@]}; i++)); do
	if [ "${args[i]}" = --reps ]; then
		reps=${args[i + 1]}
		i=$((i + 1))
	else
		rest+=("${args[i]}")
	fi
done
echo all >$MO/reasons
sysctls=()
bench_end() {
	placement_release
	[ ${#sysctls[@]} = 0 ] || sysctl -q "${sysctls[@]}"
}
trap bench_end EXIT
# every table the run asks for: MIGBENCH_TABLES and each SPEC:TABLES
all_tables=,${MIGBENCH_TABLES:-limit,a,b,first,x},
for spec in "$@"; do
	case $spec in *:*) all_tables+=${spec#*:}, ;; esac
done
case $all_tables in
*,xfull,*)
	set_to=(vm.watermark_boost_factor=0 vm.compaction_proactiveness=0
		vm.percpu_pagelist_high_fraction=100000)
	for kv in "${set_to[@]}"; do
		sysctls+=("${kv%%=*}=$(sysctl -n "${kv%%=*}")")
		sysctl -q "$kv"
	done
	echo "xfull: ${set_to[*]} for the run (were: ${sysctls[*]}); swap: $(tail -n +2 /proc/swaps | awk '{print $1}' | tr '\n' ' ')"
	;;
esac
placement_hold
xphases=
case $all_tables in
*,x,* | *,xfull,*)
	xphases=$csv.xphases
	echo "engine,rep,folio_size_B,batches,pairs,unmap_ns,flush_ns,freeze_ns,swap_ns,remap_ns" >"$xphases"
	# On for the whole run: switching an event patches kernel text, which
	# multi-threaded TCG can trip over (a stale int3)
	trace_events on mm_exchange_batch || xphases=
	;;
esac

# xphases_add LABEL REP: sum the exchange batches traced since the last
# call per folio size (pages / 2 / pairs exchanged), then empty the buffer.
xphases_add() {
	[ -n "$xphases" ] || return 0
	awk -v eng="$1" -v rep="$2" -v page="$(getconf PAGESIZE)" \
		-f "$(dirname "$0")/xphases.awk" "$TRACEFS/trace" |
		sort -t, -k3,3n >>"$xphases"
	: >"$TRACEFS/trace"
}
for rep in $(seq 1 "$reps"); do
	for spec in "$@"; do
		tables=${MIGBENCH_TABLES:-limit,a,b,first,x}
		case $spec in *:*) tables=${spec#*:} spec=${spec%%:*} ;; esac
		mo_select "$spec"
		case $spec in
		cpu) label=cpu ;;
		mtcopy-*s) label=${spec%s}T-split ;;
		mtcopy-*w) label=${spec%w}T-whole ;;
		dcbm-*s) label=${spec%s}-staging ;;
		dcbm-*) label=$spec ;;
		*) label=${spec}T ;;
		esac
		echo "== round $rep of $reps: engine $(cat $MO/engine) (mtcopy threads: $(cat $MTCOPY/threads 2>/dev/null || echo -))"
		"$TOP/tools/migbench/migbench" --label "$label" --csv "$csv" \
			--tables "$tables" --reps 1 --first-rep $((rep - 1)) "${rest[@]}"
		echo "stats: $(mo_stats)"
		# The engine's own counters (mtcopy: split_batches,
		# alone_batches, helper_chunks, unstarted_helpers), cumulative
		# like the core's: a round's share is the difference from the
		# engine's previous round.
		eng=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$MO/engine")
		if [ -n "$eng" ] && [ -d "${MO_ENGINES:-}/$eng" ]; then
			es=
			for f in "$MO_ENGINES/$eng"/*; do es+="${f##*/}=$(cat "$f") "; done
			echo "engine stats ($eng): ${es% }"
		fi
		xphases_add "$label" "$rep"
	done
done
echo cpu >$MO/engine
if [ -n "$xphases" ]; then
	trace_events off mm_exchange_batch
	echo "== exchange phases, microseconds per pair, summed over $reps rounds ($xphases)"
	echo "engine folio_B pairs unmap flush freeze swap remap"
	awk -F, 'NR > 1 {
		k = $1 " " $3; p[k] += $5
		for (i = 6; i <= 10; i++) t[k, i] += $i
	}
	END {
		for (k in p) {
			printf "%s %d", k, p[k]
			for (i = 6; i <= 10; i++) printf " %.1f", t[k, i] / p[k] / 1000
			printf "\n"
		}
	}' "$xphases" | sort -k1,1 -k2,2n
fi
