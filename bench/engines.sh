#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of make demo on the patched kernel: migbench under each
# migration copy engine, interleaved at the level of single repetitions
# (repetition 1 of every engine, then repetition 2, ...), so that a slow
# spell of the host hits every engine alike. Rows go to CSV with the
# engine as label; CSV is this script's own file and starts empty, so a
# guest command that vm-run runs again after a crash leaves no rows of the
# crashed attempt.
#   bench/engines.sh CSV SPEC... (SPEC: cpu | mtcopy-N | mtcopy-Ns, see
#   mo_select in tests/vm/lib/engines.sh; labels cpu, mtcopy-NT and
#   mtcopy-NT-split)
#   MIGBENCH_ARGS: extra migbench arguments; its --reps N (default 5) is
#   the number of rounds. MIGBENCH_TABLES: the tables [limit,a,b,first,x]
#   (x: exchange against two migrations; every engine's swap, or the CPU's
#   for an engine without one). MIGBENCH_PLACEMENT: see bench/placement.sh.
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
trap placement_release EXIT
placement_hold
for rep in $(seq 1 "$reps"); do
	for spec in "$@"; do
		mo_select "$spec"
		case $spec in
		cpu) label=cpu ;;
		mtcopy-*s) label=${spec%s}T-split ;;
		*) label=${spec}T ;;
		esac
		echo "== round $rep of $reps: engine $(cat $MO/engine) (mtcopy threads: $(cat $MTCOPY/threads 2>/dev/null || echo -))"
		"$TOP/tools/migbench/migbench" --label "$label" --csv "$csv" \
			--tables "${MIGBENCH_TABLES:-limit,a,b,first,x}" --reps 1 --first-rep $((rep - 1)) "${rest[@]}"
		echo "stats: $(mo_stats)"
	done
done
echo cpu >$MO/engine
