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
#   dcbm-1      dcbm without staging, an engine without a swap: no batch
#               reaches an engine;
#   dcbm-1s     dcbm with staging: every pair is swapped by three DMA
#               copies through the staging buffer (threshold_kb 0), 1.5
#               times the bytes of two copies;
#   mtcopy-2 + fail_migrate_offload_swap
#               every second pair mtcopy swapped is swapped back and left
#               to the CPU, which must swap it.
# After each engine run, the core's swap counters must show the path taken.
# Then dcbm's failure paths, each on the 2 MB PMD-mapped integrity test
# alone (writers running, 20 rounds of 8 pairs; with reasons=syscall only
# its exchanges reach swdma, one descriptor per copy, so the Kth
# descriptor is copy K of the first pair): swdma fails copy 1, 2 or 3 of
# the first pair (the swap is aborted, restored or finished by the CPU),
# loses it (copied, never completed: dcbm's timeout terminates it and
# settles it as failed), or makes it late past timeout_ms, with a
# terminate that works (settled as a failure) or fails (dcbm waits, then
# settles by how far it got); swdma completes in reverse within windows
# of 16 on two channels (staging never has two copies of a channel in
# flight, so none can be reordered), and fail_migrate_offload_swap swaps
# back pairs dcbm swapped. Every run must keep every word the writers
# wrote.
# make test runs the cpu, mtcopy, dcbm-1 and swap-back cases on the 2 MB
# test alone (the whole kselftest under dcbm staging, where every pair is
# swapped by DMA), and 4 of the 12 fault cases (every way a pair can end,
# and each kind of fault once); make test-full runs all of it.
# On a kernel without MPOL_MF_EXCHANGE every case skips.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib/ktap.sh"
# shellcheck source=/dev/null
. "$(dirname "$0")/lib/engines.sh"
set -u
bin=${MEMACCEL_KSELFTEST:-$TOP/build/kselftest}/mm/exchange_pages
FAIL_SWAP=/sys/kernel/debug/fail_migrate_offload_swap
# KIND COPY END: how the first pair must end when swdma fails copy COPY
# (fail), copies it but never completes it and dcbm terminates it (lose),
# delays it past timeout_ms and dcbm terminates it (late), or delays it
# and cannot be terminated, so dcbm waits (stall)
faults=(fail 1 aborted lose 2 restored late 3 finished stall 3 swapped)
# the 2 MB test alone where the full run adds nothing this path needs
SOME=(-r xchg.thp_2m_pmd.integrity)
if [ "${MEMACCEL_TEST_FULL:-0}" = 1 ]; then
	faults+=(fail 2 restored fail 3 finished lose 1 aborted lose 3 finished
		late 1 aborted late 2 restored stall 1 aborted stall 2 finished)
	SOME=()
fi
ktap_plan $((15 + 2 * ${#faults[@]} / 3))
[ -x "$bin" ] || ktap_bail_out "$bin not built (make selftests)"
restore "$MO/engine" "$MO/reasons" "$MO/batch_min"
ONE=(-r xchg.thp_2m_pmd.integrity)
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

# stuck_stacks: the kernel stack of every task in D state and of every
# exchange_pages process still there (a test the harness timed out
# leaves its children running), to show where a timed-out test waited.
stuck_stacks() {
	local d st
	for d in /proc/[0-9]*; do
		st=$(awk '{print $3}' "$d/stat" 2>/dev/null) || continue
		if [ "$st" = D ] || grep -qs exchange_pages "$d/comm"; then
			echo "pid ${d#/proc/} ($(cat "$d/comm" 2>/dev/null)) state $st:"
			cat "$d/stack" 2>/dev/null
		fi
	done
}

# selftest NAME [ARGS...]: one run of the selftest (ARGS: which tests);
# SELFTEST_RC is its exit code (4: every test skipped).
selftest() {
	local name=$1 out rc
	out=$("$bin" "${@:2}" 2>&1)
	rc=$?
	SELFTEST_RC=$rc SELFTEST_OUT=$out
	# The harness prints TAP 13 at the top level: nest it one level down.
	printf '%s\n' "$out" | sed -e '/^TAP version/d' -e 's/^/    /'
	if grep -q 'terminated by timeout' <<<"$out"; then
		stuck_stacks | ktap_diag
	fi
	if [ $rc = 4 ]; then
		ktap_skip "exchange_pages selftest, $name" "every test skipped"
	else
		ktap_result "exchange_pages selftest, $name" $rc
	fi
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
selftest "cpu swap" "${SOME[@]}"
# The cases that need the machine's help must have run, not skipped,
# where it has what they need: swap (run.sh sets up zram) and cpuset.
# Checked on the first whole run: cpu's in make test-full, dcbm
# staging's in make test.
# shellcheck disable=SC2317 # called below
need_ran() {
	local need=() t rc=0
	[ "$(wc -l </proc/swaps)" -gt 1 ] && need+=(xerr.swapcache)
	grep -qw cpuset /sys/fs/cgroup/cgroup.controllers 2>/dev/null && need+=(global.cpuset)
	if [ ${#need[@]} = 0 ]; then
		ktap_skip "the swap-cache and cpuset cases ran" "no swap and no cpuset controller"
		return
	fi
	for t in "${need[@]}"; do
		grep -Eq "^ok [0-9]+ $t\$" <<<"$SELFTEST_OUT" ||
			{ echo "$t did not pass (skipped or failed)" | ktap_diag; rc=1; }
	done
	ktap_result "the ${need[*]} cases ran and passed" $rc
}
[ ${#SOME[@]} = 0 ] && need_ran

counters="mo:swap_batches mo:swap_pairs mo:swap_fallbacks mo:small vmstat:pgexchange_success"
if mtcopy_any; then
	# shellcheck disable=SC2086 # a list of counter names
	snap $counters
	selftest "mtcopy swap, 2 threads" "${SOME[@]}"
	check_swapped "mtcopy swapped the pairs it was given" engine
else
	ktap_skip "exchange_pages selftest, mtcopy swap, 2 threads" "mtcopy not available"
	ktap_skip "mtcopy swapped the pairs it was given" "mtcopy not available"
fi

if mo_select dcbm-1; then
	# shellcheck disable=SC2086 # a list of counter names
	snap $counters
	selftest "dcbm (no swap: the CPU swaps)" "${SOME[@]}"
	check_swapped "with dcbm, the CPU swapped every pair" cpu
else
	ktap_skip "exchange_pages selftest, dcbm (no swap: the CPU swaps)" "dcbm not available"
	ktap_skip "with dcbm, the CPU swapped every pair" "dcbm not available"
fi

DCBM_SWAP="dcbm:swap_pairs dcbm:swap_cpu_pairs dcbm:swap_aborted dcbm:swap_restored dcbm:swap_finished dcbm:swap_lost dcbm:swap_timeouts dcbm:broken swdma:failed swdma:late swdma:lost swdma:reordered mo:swap_fallbacks"

# expect_deltas NAME COND...: one result; COND is COUNTER=N, COUNTER>N or
# COUNTER>=N on its increase since the snap.
expect_deltas() {
	local name=$1 e c op v d rc=0
	shift
	# shellcheck disable=SC2086 # a list of counter names
	deltas $DCBM_SWAP | ktap_diag
	for e in "$@"; do
		case $e in
		*'>='*) c=${e%%>=*} op=ge v=${e#*>=} ;;
		*'>'*) c=${e%%>*} op=gt v=${e#*>} ;;
		*) c=${e%%=*} op=eq v=${e#*=} ;;
		esac
		d=$(since "$c")
		if ! test "$d" "-$op" "$v"; then
			echo "$c +$d: wanted -$op $v" | ktap_diag
			rc=1
		fi
	done
	ktap_result "$name" $rc
}

# dcbm_fault KIND K WHAT COND...: swdma's inject_KIND hits the Kth
# descriptor of the 2 MB integrity test under dcbm-1s; the test passes and
# the counters meet COND. KIND stall is late with a terminate that fails:
# the channel is broken, and requested again after. Each run starts on
# one channel, in order.
dcbm_fault() {
	local kind=$1 k=$2 what=$3 inject=$1
	shift 3
	[ "$kind" = stall ] && inject=late
	echo 1 >"$DCBM/channels"
	echo 0 >"$SWDMA/reorder"
	# shellcheck disable=SC2086 # a list of counter names
	snap $DCBM_SWAP
	fault_nth "$SWDBG/inject_$inject" "$k"
	selftest "dcbm staging, swdma $kind at copy $k: $what" "${ONE[@]}"
	fault_off "$SWDBG/inject_$inject"
	if [ "$SELFTEST_RC" = 4 ]; then
		ktap_skip "dcbm staging, $kind at copy $k: $what" "the test skipped"
	else
		expect_deltas "dcbm staging, $kind at copy $k: $what" "$@"
	fi
	[ "$kind" = stall ] && echo N >"$SWDMA/terminate_fails"
}

if [ -e "$DCBM/staging" ] || { modprobe dcbm && [ -e "$DCBM/staging" ]; }; then
	restore "$DCBM/staging" "$DCBM/timeout_ms" "$SWDMA/late_ms" \
		"$SWDMA/terminate_fails" "$SWDMA/reorder"
fi
if [ -e "$DCBM/staging" ] && mo_select dcbm-1s; then
	# shellcheck disable=SC2086 # a list of counter names
	snap $counters $DCBM_SWAP dcbm:swap_bytes mo:swap_bytes dcbm:busy
	selftest "dcbm swap through staging"
	[ ${#SOME[@]} = 0 ] || need_ran
	# The races test runs two exchanges and a move_pages at once on the
	# one channel: a batch that finds it busy is left to the CPU. busy
	# counts the move_pages copy batches too, whose pairs are not swaps:
	# it bounds nothing but that some pair fell back (a long-path run
	# had 6188 busy batches and 5570 pairs left to the CPU)
	busy=$(since dcbm:busy)
	if [ "$busy" = 0 ]; then
		check_swapped "dcbm swapped the pairs it was given" engine
	else
		echo "dcbm:busy +$busy: $busy batches (copies and swaps) found the channel busy" | ktap_diag
		check_swapped "dcbm swapped the pairs it was given" both 1
	fi
	dbytes=$(since dcbm:swap_bytes) mbytes=$(since mo:swap_bytes)
	echo "dcbm:swap_bytes +$dbytes mo:swap_bytes +$mbytes" | ktap_diag
	expect_deltas "dcbm swapped by DMA alone, 3 copies per pair" \
		"dcbm:swap_pairs>0" dcbm:swap_cpu_pairs=0 dcbm:swap_aborted=0 \
		dcbm:swap_restored=0 dcbm:swap_finished=0 dcbm:swap_lost=0 \
		dcbm:swap_timeouts=0 "dcbm:swap_bytes=$((mbytes * 3 / 2))"

	echo syscall >"$MO/reasons"
	echo 1000 >"$SWDMA/late_ms"
	for ((i = 0; i < ${#faults[@]}; i += 3)); do
		kind=${faults[i]} k=${faults[i + 1]} end=${faults[i + 2]}
		case $kind in
		fail) echo 5000 >"$DCBM/timeout_ms"
			set -- swdma:failed=1 dcbm:swap_timeouts=0 dcbm:broken=0 ;;
		lose) echo 200 >"$DCBM/timeout_ms"
			set -- swdma:lost=1 dcbm:swap_timeouts=1 dcbm:broken=0 ;;
		late) echo 200 >"$DCBM/timeout_ms"
			set -- swdma:late=1 dcbm:swap_timeouts=1 dcbm:broken=0 ;;
		stall) echo 200 >"$DCBM/timeout_ms"
			echo Y >"$SWDMA/terminate_fails"
			set -- swdma:late=1 dcbm:swap_timeouts=1 dcbm:broken=1 ;;
		esac
		case $end in
		swapped) set -- "$@" dcbm:swap_aborted=0 dcbm:swap_restored=0 \
			dcbm:swap_finished=0 "dcbm:swap_pairs>0" ;;
		*) set -- "$@" "dcbm:swap_$end=1" ;;
		esac
		# the aborted and restored pair is left to the core's CPU swap
		case $end in aborted|restored) set -- "$@" "mo:swap_fallbacks>=1" ;; esac
		dcbm_fault "$kind" "$k" "$end" "$@" dcbm:swap_lost=0
	done
	echo 5000 >"$DCBM/timeout_ms"

	# Two channels, completions reversed within windows of 16: a staging
	# swap waits for each copy before the next, so a channel never has
	# two in flight, swdma has nothing to reorder, and must complete a
	# lone descriptor rather than hold it for a window that never fills
	why=
	mo_select dcbm-2s || why="dcbm on 2 swdma channels cannot be selected"
	[ -z "$why" ] && [ "$(cat "$DCBM/channels")" != 2 ] && why="dcbm has $(cat "$DCBM/channels") channels, not 2"
	[ -z "$why" ] && { echo 16 >"$SWDMA/reorder" || why="swdma reorder cannot be set"; }
	if [ -z "$why" ]; then
		# shellcheck disable=SC2086 # a list of counter names
		snap $DCBM_SWAP
		selftest "dcbm staging on 2 channels, swdma reorder 16" "${ONE[@]}"
		echo 0 >"$SWDMA/reorder"
		expect_deltas "dcbm staging, reorder 16: swapped, nothing reordered" \
			"dcbm:swap_pairs>0" dcbm:swap_aborted=0 dcbm:swap_restored=0 \
			dcbm:swap_finished=0 dcbm:swap_lost=0 swdma:failed=0 \
			swdma:reordered=0
	else
		ktap_skip "exchange_pages selftest, dcbm staging on 2 channels, swdma reorder 16" "$why"
		ktap_skip "dcbm staging, reorder 16: swapped, nothing reordered" "$why"
	fi
	echo 1 >"$DCBM/channels"
	echo all >"$MO/reasons"
else
	ktap_skip "exchange_pages selftest, dcbm swap through staging" "no dcbm staging"
	[ ${#SOME[@]} = 0 ] || ktap_skip "the swap-cache and cpuset cases ran" "no dcbm staging"
	ktap_skip "dcbm swapped the pairs it was given" "no dcbm staging"
	ktap_skip "dcbm swapped by DMA alone, 3 copies per pair" "no dcbm staging"
	for ((i = 0; i < ${#faults[@]}; i += 3)); do
		what="${faults[i]} at copy ${faults[i + 1]}: ${faults[i + 2]}"
		ktap_skip "exchange_pages selftest, dcbm staging, swdma $what" "no dcbm staging"
		ktap_skip "dcbm staging, $what" "no dcbm staging"
	done
	ktap_skip "exchange_pages selftest, dcbm staging on 2 channels, swdma reorder 16" "no dcbm staging"
	ktap_skip "dcbm staging, reorder 16: swapped, nothing reordered" "no dcbm staging"
fi

# swap_back NAME SELECT [ARGS...]: fail_migrate_offload_swap swaps back
# every second pair the engine SELECT swapped; the CPU must swap them.
swap_back() {
	local name=$1 injected
	if [ -d "$FAIL_SWAP" ] && $2; then
		fault_arm "$FAIL_SWAP" 2
		# shellcheck disable=SC2086 # a list of counter names
		snap $counters
		selftest "$name swap, every second pair failed" "${@:3}"
		fault_off "$FAIL_SWAP"
		injected=$(fault_count "$FAIL_SWAP")
		echo "fail_migrate_offload_swap failed $injected pairs" | ktap_diag
		check_swapped "the CPU swapped the pairs $name failed" both "$injected"
	else
		ktap_skip "exchange_pages selftest, $name swap, every second pair failed" "no $FAIL_SWAP or $name"
		ktap_skip "the CPU swapped the pairs $name failed" "no $FAIL_SWAP or $name"
	fi
}
dcbm_staged() { [ -e "$DCBM/staging" ] && mo_select dcbm-1s; }
swap_back mtcopy mtcopy_any "${SOME[@]}"
swap_back "dcbm staging" dcbm_staged "${ONE[@]}"
ktap_finished
