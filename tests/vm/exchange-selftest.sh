#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The series' exchange kselftest, tools/testing/selftests/mm/exchange_pages
# (kselftest_harness, built with the mm selftests from the same tree), once
# per data path of the exchange, each run one nested KTAP block whose cases
# are what get counted:
#   cpu         the CPU swap (no engine);
#   mtcopy-2    mtcopy's swap on two threads, with batch_min 1 and
#               thread_min_kb 4: every batch, a pair retried alone
#               included, reaches the engine, and a helper may take any pair;
#   dcbm-1      an engine without a swap: no batch reaches an engine;
#   mtcopy-2 + fail_migrate_offload_swap
#               every second pair mtcopy swapped is swapped back and left
#               to the CPU, which must swap it.
# After each engine run, the core's swap counters must show the path taken.
# On a kernel without MPOL_MF_EXCHANGE every case skips.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib/ktap.sh"
# shellcheck source=/dev/null
. "$(dirname "$0")/lib/engines.sh"
set -u
bin=${MEMACCEL_KSELFTEST:-$TOP/build/kselftest}/mm/exchange_pages
FAIL_SWAP=/sys/kernel/debug/fail_migrate_offload_swap
ktap_plan 7
[ -x "$bin" ] || ktap_bail_out "$bin not built (make selftests)"
restore "$MO/engine" "$MO/reasons" "$MO/batch_min"
[ -d "$MTCOPY" ] || modprobe mtcopy
[ -d "$MTCOPY" ] && restore "$MTCOPY/threads" "$MTCOPY/thread_min_kb"
echo all >"$MO/reasons"

# check_swapped NAME WHO [N]: one result, with the counters as a diagnostic
check_swapped() {
	local out rc
	out=$(swapped_by "${@:2}")
	rc=$?
	printf '%s\n' "$out" | ktap_diag
	ktap_result "$1" $rc
}

# mtcopy on 2 threads, given every batch and allowed a helper for any pair
mtcopy_any() {
	mo_select mtcopy-2 && echo 4 >"$MTCOPY/thread_min_kb" &&
		echo 1 >"$MO/batch_min"
}

selftest() {
	local name=$1 out rc
	out=$("$bin" 2>&1)
	rc=$?
	# The harness prints TAP 13 at the top level: nest it one level down.
	printf '%s\n' "$out" | sed -e '/^TAP version/d' -e 's/^/    /'
	ktap_result "exchange_pages selftest, $name" $rc
}

# swapped_by WHO: the counters since the snap say who swapped: "engine"
# (the engine swapped pairs and left none to the CPU), "cpu" (no batch
# reached an engine swap, and pages were exchanged) or "both N" (the engine
# swapped pairs and the CPU swapped pairs it left, at least the N that
# fault injection took from it; more only if the engine itself failed).
# With an engine, no batch may have been too small for it.
swapped_by() {
	local want=$1 injected=${2:-0} batches pairs fallbacks pages small
	batches=$(since mo:swap_batches)
	pairs=$(since mo:swap_pairs)
	fallbacks=$(since mo:swap_fallbacks)
	pages=$(since vmstat:pgexchange_success)
	small=$(since mo:small)
	echo "swap_batches +$batches swap_pairs +$pairs swap_fallbacks +$fallbacks pgexchange_success +$pages small +$small"
	case $want in
	engine) [ "$pairs" -gt 0 ] && [ "$fallbacks" = 0 ] && [ "$small" = 0 ] ;;
	cpu) [ "$batches" = 0 ] && [ "$pages" -gt 0 ] ;;
	both) [ "$pairs" -gt 0 ] && [ "$injected" -gt 0 ] &&
		[ "$fallbacks" -ge "$injected" ] && [ "$small" = 0 ] ;;
	esac
}

echo cpu >"$MO/engine"
selftest "cpu swap"

counters="mo:swap_batches mo:swap_pairs mo:swap_fallbacks mo:small vmstat:pgexchange_success"
if mtcopy_any; then
	# shellcheck disable=SC2086 # a list of counter names
	snap $counters
	selftest "mtcopy swap, 2 threads"
	check_swapped "mtcopy swapped the pairs it was given" engine
else
	ktap_skip "exchange_pages selftest, mtcopy swap, 2 threads" "mtcopy not available"
	ktap_skip "mtcopy swapped the pairs it was given" "mtcopy not available"
fi

if mo_select dcbm-1; then
	# shellcheck disable=SC2086 # a list of counter names
	snap $counters
	selftest "dcbm (no swap: the CPU swaps)"
	check_swapped "with dcbm, the CPU swapped every pair" cpu
else
	ktap_skip "exchange_pages selftest, dcbm (no swap: the CPU swaps)" "dcbm not available"
	ktap_skip "with dcbm, the CPU swapped every pair" "dcbm not available"
fi

if [ -d "$FAIL_SWAP" ] && mtcopy_any; then
	fault_arm "$FAIL_SWAP" 2
	# shellcheck disable=SC2086 # a list of counter names
	snap $counters
	selftest "mtcopy swap, every second pair failed"
	fault_off "$FAIL_SWAP"
	injected=$(fault_count "$FAIL_SWAP")
	echo "fail_migrate_offload_swap failed $injected pairs" | ktap_diag
	check_swapped "the CPU swapped the pairs the engine failed" both "$injected"
else
	ktap_skip "exchange_pages selftest, mtcopy swap, every second pair failed" "no $FAIL_SWAP or mtcopy"
	ktap_skip "the CPU swapped the pairs the engine failed" "no $FAIL_SWAP or mtcopy"
fi
ktap_finished
