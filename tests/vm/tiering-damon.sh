#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DAMON tiering on 4node-tiered, driven by damo (requirements.txt), with
# NUMA balancing off so that only DAMON moves pages:
#
#   migrate_hot to node 0 of pages on node 2 that migcheck's writers and
#     readers touch, under each engine: half of them reach node 0 with
#     every word intact
#   migrate_cold to node 2 of pages on node 0 that nothing touches
#   exchange_on_full, bad input: -EINVAL and the value kept
#   migrate_hot into node 0 kept full (its free memory between its min
#     and low watermarks: DAMON's migrations, which do not reclaim,
#     succeed only down to min, a few MiB), with untouched partner pages
#     there: with exchange_on_full=1 a tenth of the hot pages reach node
#     0, 512 or more by exchange, under each engine, with hot and cold
#     data intact; with 0, nothing is exchanged (what migrates in
#     is what kswapd made room for: swap, demotion and the page cache are
#     out of its reach, but slab and the page cache the test itself brings
#     in are not). Each run checks that node 0 was below its high watermark
#     and that DAMON tried the scheme.
# Which engines run: see below.
# Exchange partners need the classic LRU: under MGLRU those checks skip.
# MEMACCEL_MO_ENGINES replaces the engines [cpu mtcopy-2 dcbm-2].
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
. "$(dirname "$0")/lib/damo.sh"
# shellcheck source=/dev/null
. "$(dirname "$0")/lib/tiers.sh"
[ "${MEMACCEL_TOPOLOGY:-}" = 4node-tiered ] || ktap_skip_all "needs the 4node-tiered topology"
# DAMON's migrations take the same batched migrate_pages() as every other
# caller, whose engines offload, mo-selftest and tiering test one by one;
# here each run costs 40-150 s. make test runs migrate_hot under dcbm-2
# (DMA copies) and exchange_on_full under mtcopy-2 (the engine's own swap;
# the core's CPU swap is exchange-selftest's and tiering's), and make
# test-full both under every engine (dcbm without staging leaves every
# pair to the core's CPU swap, as cpu does: the counts below show it).
full=0
[ "${MEMACCEL_TEST_FULL:-0}" = 1 ] || [ -n "${MEMACCEL_MO_ENGINES:-}" ] && full=1
read -ra engines <<<"${MEMACCEL_MO_ENGINES:-cpu mtcopy-2 dcbm-2}"
xengines=("${engines[@]}")
if [ $full = 0 ]; then
	engines=(dcbm-2)
	xengines=(mtcopy-2)
fi
ktap_plan $((1 + ${#engines[@]} + 1 + 1 + ${#xengines[@]} * 2 + 2))

restore /proc/sys/kernel/numa_balancing
# migcheck runs on CPU 0: without this, DAMON stops seeing its accesses
# once QEMU's TLB holds them all (lib/tiers.sh)
tlb_churn 0
# as tiering.sh: a test before this one may have left node 0's kswapd
# given up (this one's checks do not need it, but its timing might)
echo "node 0 at the start: $(node0_unreclaimable)" | ktap_diag
revive_kswapd0 || echo "node 0's kswapd could not be revived: $(node0_unreclaimable)" | ktap_diag
at_exit write_value $MO/engine cpu
echo 0 >/proc/sys/kernel/numa_balancing

ps -eo pid,stat,pcpu,time,comm --sort=-time | head -8 | ktap_diag
out=$(damo_init 2>&1)
rc=$?
printf '%s\n' "$out" | head -3 | ktap_diag
ktap_result "damo runs and reads the kernel's DAMON features" $rc
[ $rc = 0 ] || ktap_bail_out "no damo"

# damo_start NODE ACTION TARGET: one paddr scheme over NODE's memory
# shellcheck disable=SC2317 # run through require
damo_start() {
	local rate
	case $2 in
	migrate_hot) rate=(--damos_access_rate 5% max --damos_age 0 max) ;;
	migrate_cold) rate=(--damos_access_rate 0% 0% --damos_age 1s max) ;;
	esac
	# At least 100 regions: a 32 MiB hot set in a 1 GiB node is found in
	# seconds, where DAMON's default of 10 can take it minutes in TCG
	damo start --ops paddr --numa_node "$1" \
		--monitoring_nr_regions_range 100 1000 --damos_action "$2" "$3" \
		"${rate[@]}" >/dev/null
}
KDAMOND=/sys/kernel/mm/damon/admin/kdamonds/0
SCHEME=$KDAMOND/contexts/0/schemes/0
# damon_state: what the scheme did and where kdamond is, for a failure
# shellcheck disable=SC2317 # run on failures
damon_state() {
	local f pid
	echo update_schemes_stats >$KDAMOND/state
	for f in nr_tried sz_tried nr_applied sz_applied; do
		printf '%s %s  ' "$f" "$(cat "$SCHEME/stats/$f")"
	done
	echo
	pid=$(cat $KDAMOND/pid)
	[ "$pid" -gt 0 ] 2>/dev/null || return 0
	echo "kdamond $pid: state $(awk '{print $3}' "/proc/$pid/stat"), $(awk '{print $14 + $15}' "/proc/$pid/stat") ticks of CPU"
	sed 's/^/  /' "/proc/$pid/stack"
}
# migcheck of folios on node $1 that must reach node $2, with DAMON started
# (damo_start $1 ACTION $2) once they are filled and their policy reset
# shellcheck disable=SC2317 # run through ktap_check
await() {
	local src=$1 action=$2 dst=$3 pid rc _
	shift 3
	rm -f /tmp/damon-ready
	taskset -c 0 "$MIGCHECK" --src "$src" --await "$dst" --size 4096 \
		--ready /tmp/damon-ready "$@" &
	pid=$!
	for _ in $(seq 600); do
		[ -e /tmp/damon-ready ] && break
		sleep 0.1
	done
	damo_start "$src" "$action" "$dst"
	wait "$pid"
	rc=$?
	[ "$rc" = 0 ] || damon_state
	damo stop >/dev/null 2>&1
	return "$rc"
}

# -- migrate_hot, every engine
for e in "${engines[@]}"; do
	require "engine $e" mo_select "$e"
	ktap_check "$e: migrate_hot moved half of 32 MiB 2 -> 0, writers running, data intact" \
		await 2 migrate_hot 0 --total 32M --await-pct 50 --timeout 90 --writers 1 --readers 1
done
require "engine cpu" mo_select cpu

# -- migrate_cold
# Alone, DAMON moves half of them in 15-22 s here; after the tiering test
# (make test's order) it took 104-130 s in two boots and failed a CI run
# at migcheck's former 90 s, so it waits up to 240 s, and its wait is
# shown. Not for want of memory: nodes 0 and 2 were nearly empty, with
# or without the page cache dropped. The whole guest is slower then
# (damo's start 102 s, not 30), so the tasks that used the most CPU are
# shown before the first check
KTAP_SHOW="pages on node" ktap_check \
	"migrate_cold moved half of 32 MiB of untouched pages 0 -> 2, data intact" \
	await 0 migrate_cold 2 --total 32M --await-pct 50 --timeout 240 \
	--writers 0 --readers 0

# -- exchange_on_full
# bad_xo: with a scheme set up (not running), bad values are refused with
# EINVAL and the value stays
# shellcheck disable=SC2317 # run through ktap_check
bad_xo() {
	local v rc=0
	echo 1 >"$SCHEME/exchange_on_full" || return 1
	for v in 2 -1 x 1x 4294967296; do
		if printf '%s' "$v" >"$SCHEME/exchange_on_full" 2>/tmp/damon-xo.err ||
		   ! grep -q "Invalid argument" /tmp/damon-xo.err; then
			echo "'$v' was not refused with EINVAL"
			rc=1
		fi
	done
	[ "$(cat "$SCHEME/exchange_on_full")" = 1 ] || { echo "value not kept"; rc=1; }
	echo 0 >"$SCHEME/exchange_on_full"
	return "$rc"
}
# The scheme's directory, made through sysfs (damo start keeps it, and a
# damo start and stop cost 20 s here)
A=/sys/kernel/mm/damon/admin/kdamonds
[ "$(cat $A/nr_kdamonds)" -ge 1 ] || echo 1 >$A/nr_kdamonds
[ "$(cat $A/0/contexts/nr_contexts)" -ge 1 ] || echo 1 >$A/0/contexts/nr_contexts
[ "$(cat $A/0/contexts/0/schemes/nr_schemes)" -ge 1 ] ||
	echo 1 >$A/0/contexts/0/schemes/nr_schemes
# Patch 40 is in every test kernel: a missing file fails
if [ ! -e "$SCHEME/exchange_on_full" ]; then
	ktap_fail "exchange_on_full: no such file in the scheme's directory"
	for ((i = 1; i < 1 + ${#xengines[@]} * 2 + 2; i++)); do
		ktap_skip "exchange_on_full check $((i + 1))" "no exchange_on_full"
	done
	ktap_finished
fi
if [ "$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo 0x0000)" != 0x0000 ]; then
	for ((i = 0; i < 1 + ${#xengines[@]} * 2 + 2; i++)); do
		ktap_skip "exchange_on_full check $((i + 1))" "the multi-gen LRU is on: no exchange partner is ever found"
	done
	ktap_finished
fi
ktap_check "exchange_on_full: 2, -1, x, 1x and 2^32 refused with EINVAL, 1 kept" bad_xo

restore /proc/sys/vm/min_free_kbytes /sys/kernel/mm/numa/demotion_enabled "$HUGE0"
# Watermarks that huge pages and THP settings do not move, 40/51/61 MiB
# on node 0; no swap and no demotion, so that kswapd cannot make room
echo 131072 >/proc/sys/vm/min_free_kbytes
swap_off
echo 0 >/sys/kernel/mm/numa/demotion_enabled
# full XO ARGS...: migcheck of 32 MiB on node 2 awaited on node 0, with
# 64 MiB of untouched partners on node 0, which is then made full; DAMON
# starts with exchange_on_full=XO, written before damo starts it (damo
# keeps the scheme directories and knows nothing of the file) and
# committed again once it runs. Sets FULL_RC, migcheck's exit code, and
# FULL_WHY, what went wrong around it (empty if nothing).
# shellcheck disable=SC2317 # run through ktap_check
full() {
	local xo=$1 pid high free tried _
	shift
	FULL_WHY=
	rm -f /tmp/damon-ready /tmp/damon-until
	taskset -c 0 "$MIGCHECK" --src 2 --await 0 --size 4096 --total 32M \
		--cold 64M --writers 1 --readers 1 --ready /tmp/damon-ready "$@" &
	pid=$!
	for _ in $(seq 600); do
		{ [ ! -e /tmp/damon-ready ] && kill -0 "$pid" 2>/dev/null; } || break
		sleep 0.1
	done
	fill0 0 below
	free=$(zfree0) high=$(wmark0 high)
	echo "node 0: $free MiB free in DMA32, watermarks $(wmark0 min)/$(wmark0 low)/$high"
	[ "$free" -lt "$high" ] || FULL_WHY="node 0 not full ($free MiB free, high $high)"
	echo "$xo" >"$SCHEME/exchange_on_full" || FULL_WHY="exchange_on_full not written"
	damo_start 2 migrate_hot 0
	{ echo "$xo" >"$SCHEME/exchange_on_full" && echo commit >$KDAMOND/state; } ||
		FULL_WHY="exchange_on_full not committed"
	if [ "$xo" = 0 ]; then
		# Nothing can go in: the wait ends 5 s after DAMON first tried
		# the scheme (over 30 s after its start on a slow host)
		for _ in $(seq 240); do
			kill -0 "$pid" 2>/dev/null || break
			echo update_schemes_stats >$KDAMOND/state
			[ "$(cat "$SCHEME/stats/nr_tried")" -gt 0 ] && { sleep 5; break; }
			sleep 1
		done
		touch /tmp/damon-until
	fi
	wait "$pid"
	FULL_RC=$?
	damon_state
	tried=$(cat "$SCHEME/stats/nr_tried")
	[ "$tried" -gt 0 ] || FULL_WHY="DAMON never tried the scheme"
	damo stop >/dev/null 2>&1
	echo 0 >"$SCHEME/exchange_on_full"
	unfill0
	[ -z "$FULL_WHY" ] || echo "$FULL_WHY"
}
# full_ok LOG: the last run, whose output is in LOG, went as planned and
# migcheck succeeded
# shellcheck disable=SC2317 # run through ktap_check
full_ok() { cat "$1"; [ -z "$FULL_WHY" ] && [ "$FULL_RC" = 0 ]; }
for e in "${xengines[@]}"; do
	name="$e: node 0 full, exchange_on_full=1: a tenth of 32 MiB in, hot and cold data intact"
	require "engine $e" mo_select "$e"
	x0=$(vmstat pgexchange_success) s0=$(ctr mo:swap_pairs)
	full 1 --await-pct 10 --timeout 90 >/tmp/damon-xo1.log 2>&1
	ktap_check "$name" full_ok /tmp/damon-xo1.log
	# Both sides of a pair count: 512 hot pages in by exchange
	x=$(($(vmstat pgexchange_success) - x0)) sw=$(($(ctr mo:swap_pairs) - s0))
	# mtcopy swaps what it is given; dcbm without staging and cpu leave
	# every pair to the core's CPU swap
	ktap_check "$e: exchange_on_full=1: $x pages exchanged (>= 1024), $sw pairs by the engine's swap" \
		sh -c "[ $x -ge 1024 ] && { [ $e != mtcopy-2 ] || [ $sw -gt 0 ]; }"
done
require "engine cpu" mo_select cpu
x0=$(vmstat pgexchange_success) m0=$(vmstat pgmigrate_success)
full 0 --await-pct 100 --timeout 240 --until /tmp/damon-until >/tmp/damon-xo0.log 2>&1
ktap_diag </tmp/damon-xo0.log
ktap_check "node 0 full, exchange_on_full=0: data intact (exit $FULL_RC: 0, or 2 for pages left on node 2)${FULL_WHY:+; $FULL_WHY}" \
	test -z "$FULL_WHY" -a \( "$FULL_RC" = 0 -o "$(grep -c 'data intact, but' /tmp/damon-xo0.log)" = 1 \)
ktap_check "exchange_on_full=0: nothing exchanged ($(($(vmstat pgmigrate_success) - m0)) pages migrated as kswapd made room)" \
	test "$(vmstat pgexchange_success)" = "$x0"

ktap_finished
