#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The exchange tiering policy (tiering/policy, Nimble §3.2) on
# 4node-tiered, with NUMA balancing off so that only the policy moves
# pages:
#   knobs: defaults, bad input refused with EINVAL and the value kept;
#     policy=1 starts one kpromoted thread per CPU node, 0 stops them
#   under every engine: pages on node 2 that writers and readers touch from
#     CPU 0 all reach node 0, with every word intact, by migration while
#     node 0 has room (policy_promoted; pgpromote_success only counts in
#     NUMA balancing's tiering mode)
#   policy_max_pages holds within one memcg (the trace's per-interval
#     count); hint faults that queue folios while long intervals run get
#     them drained inside the intervals (the trace's times), data intact
#   node 0 full (hugetlb filler, no swap, no demotion) with untouched
#     partner pages there: half of the hot pages reach node 0 by exchange,
#     under every engine, hot and cold data intact
#   a stable pattern (tierbench, one hot window, node 0 full): the hot set
#     reaches 90 % on node 0 and no page moves twice in the run
#   a hot set that moves (two windows, node 0 full with room for one): each
#     window reaches 90 % on node 0, the second by exchange with the first
#   a node-2 memory block offlined and onlined while the policy runs on
#     pages there: both succeed, data intact, the policy still runs
#   policy=0 under load: data intact, no thread, no page left isolated
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
. "$(dirname "$0")/lib/tiers.sh"
T=$MO/tiering
read -ra engines <<<"${MEMACCEL_MO_ENGINES:-cpu mtcopy-2 dcbm-2}"
TIERBENCH=${TIERBENCH:-$TOP/tools/tierbench/tierbench}
[ "${MEMACCEL_TOPOLOGY:-}" = 4node-tiered ] || ktap_skip_all "needs the 4node-tiered topology"
[ -e $T/policy ] || ktap_skip_all "no $T/policy: a kernel without the tiering policy"
[ "$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo 0x0000)" = 0x0000 ] ||
	ktap_skip_all "the multi-gen LRU is on: the policy refuses to start"
ktap_plan $((16 + 4 * ${#engines[@]}))

restore /proc/sys/kernel/numa_balancing $T/policy_interval_ms \
	$T/policy_scan_pages $T/policy_max_pages
at_exit write_value $MO/engine cpu
at_exit write_value $T/policy 0
echo 0 >/proc/sys/kernel/numa_balancing
echo 0 >$T/promote_batch
# The workloads run on CPU 0: without this, folio_referenced() stops seeing
# their accesses once QEMU's TLB holds them all (lib/tiers.sh)
tlb_churn 0

# migcheck --await 0 of folios on node 2, writers and readers on CPU 0
# shellcheck disable=SC2317 # run through ktap_check
promote() {
	taskset -c 0 "$MIGCHECK" --src 2 --await 0 --writers 1 --readers 1 "$@"
}

# -- knobs
ktap_check "defaults: policy 0, interval 1000 ms, scan 4096 pages, max 8192 pages" \
	test "$(cat $T/policy) $(cat $T/policy_interval_ms) $(cat $T/policy_scan_pages) $(cat $T/policy_max_pages)" = "0 1000 4096 8192"
bad=0
for kv in policy=2 policy=on policy=-1 policy_interval_ms=99 policy_interval_ms=60001 \
	policy_scan_pages=0 policy_scan_pages=1048577 policy_max_pages=0 policy_max_pages=x; do
	k=${kv%%=*} before=$(cat "$T/$k")
	if printf '%s' "${kv#*=}" 2>/tmp/tiering-policy.err >"$T/$k" ||
	   ! grep -q "Invalid argument" /tmp/tiering-policy.err; then
		bad=1
		echo "$kv not refused with EINVAL"
	fi
	[ "$(cat "$T/$k")" = "$before" ] || { bad=1; echo "$kv changed $k to $(cat "$T/$k")"; }
done >/tmp/tiering-policy-bad.log 2>&1
ktap_check "bad values fail with EINVAL and change nothing" test $bad = 0
[ $bad = 0 ] || ktap_diag </tmp/tiering-policy-bad.log
echo 1 >$T/policy
ktap_check "policy=1: one kpromoted thread per CPU node (2)" test "$(threads)" = 2
echo 0 >$T/policy
ktap_check "policy=0: the threads are gone" test "$(threads)" = 0

# A short interval: the test waits for a few of them
echo 200 >$T/policy_interval_ms
# -- node 0 with room: the policy migrates
for e in "${engines[@]}"; do
	require "engine $e" mo_select "$e"
	echo 1 >"$T/policy"
	iso0=$(isolated) q0=$(stat policy_promoted) p0=$(vmstat pgpromote_success)
	ktap_check "$e: 24 MiB of every folio size touched on node 2 reach node 0, data intact" \
		promote --mixed --total 24M --allow-splits --timeout 90
	q=$(($(stat policy_promoted) - q0)) p=$(($(vmstat pgpromote_success) - p0))
	echo 0 >"$T/policy"
	# pgpromote_success counts promotions in NUMA balancing's tiering
	# mode only, which is off here
	ktap_check "$e: $q pages promoted by the policy (all 6144), pgpromote_success +$p (0: NUMA balancing off)" \
		test "$q" -ge 6144 -a "$p" = 0
done
ktap_check "after the runs: node 2 isolated pages back to $iso0" isolated_back "$iso0"
require "engine cpu" mo_select cpu

# -- policy_max_pages holds inside one memcg, and queued folios do not
# wait for an interval to end. Both through the trace of an instance of
# our own: mm_tier_policy at each interval's end, mm_promote_drain at each
# drain of the queue, node 0's.
TI=/sys/kernel/tracing/instances/tiering-policy
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing
mkdir -p $TI && echo 4096 >$TI/buffer_size_kb
at_exit rmdir $TI
at_exit write_value $TI/tracing_on 0
for ev in mm_tier_policy mm_promote_drain; do
	echo 1 >"$TI/events/migrate/$ev/enable"
done
# trace_events EVENT: "SECONDS FIELDS..." per event of node 0
trace_events() {
	awk -v ev="$1:" '{
		for (i = 2; i <= NF; i++)
			if ($i == ev && $(i + 1) == "nid=0") {
				t = $(i - 1); sub(/:$/, "", t)
				print t, substr($0, index($0, ev) + length(ev) + 1)
			}
	}' $TI/trace
}
# One memcg (migcheck's) with 4096 hot pages and policy_max_pages 256:
# the policy takes hot folios in steps and checks what a step took after
# each turn of SWAP_CLUSTER_MAX base pages on a list, so an interval moves
# at most 256 + 31 base pages of 4 KiB folios (320: some room)
echo 256 >$T/policy_max_pages
echo >$TI/trace
echo 1 >$T/policy
ktap_check "policy_max_pages 256: 16 MiB of 4 KiB pages touched on node 2 reach node 0, data intact" \
	promote --size 4096 --total 16M --timeout 90
echo 0 >$T/policy
maxp=$(trace_events mm_tier_policy | sed -n 's/.* promoted=\([0-9]*\).*/\1/p' | sort -n | tail -1)
ktap_check "policy_max_pages 256: at most ${maxp:-?} pages promoted in an interval (<= 320)" \
	test "${maxp:-0}" -gt 0 -a "${maxp:-999999}" -le 320
echo 8192 >$T/policy_max_pages

# Long intervals (every page of 256 MiB held untouched on node 2 looked
# at in each) while NUMA balancing's hint faults queue folios for the
# same thread: the queue is drained between the policy's steps, not only
# after the interval. A drain more than 0.5 s after the interval before
# ended (the next one starts 100 ms after it, the drains in between take
# a few tens of ms) ran inside an interval.
# shellcheck disable=SC2317 # run through ktap_check
drains_inside() {
	local frag rc _
	rm -f /tmp/tiering-policy-frag
	"$MIGCHECK" --fragment --src 2 --total 512M --ready /tmp/tiering-policy-frag &
	frag=$!
	for _ in $(seq 600); do
		{ [ ! -e /tmp/tiering-policy-frag ] && kill -0 "$frag" 2>/dev/null; } || break
		sleep 0.1
	done
	echo 2 >/proc/sys/kernel/numa_balancing
	echo 1 >"$T/promote_batch"
	echo 100 >"$T/policy_interval_ms"
	echo 1048576 >"$T/policy_scan_pages"
	echo >"$TI/trace"
	echo 1 >"$T/policy"
	promote --size 4096 --total 24M --timeout 60
	rc=$?
	echo 0 >"$T/policy"
	echo 0 >"$T/promote_batch"
	echo 0 >/proc/sys/kernel/numa_balancing
	echo 4096 >"$T/policy_scan_pages"
	echo 200 >"$T/policy_interval_ms"
	kill -USR1 "$frag"
	wait "$frag" || { echo "migcheck --fragment: data check failed"; rc=1; }
	{ trace_events mm_tier_policy | sed 's/ .*/ end/'
	  trace_events mm_promote_drain | sed 's/ .*/ drain/'; } | sort -n |
		awk -v rc="$rc" '
		$2 == "drain" { t[n++] = $1; next }
		{	# an interval ended: count the drains since the one before
			if (last && $1 - last >= 1) {
				long++
				for (i = 0; i < n; i++)
					inside += t[i] - last > 0.5
			}
			drains += n; n = 0; last = $1
		}
		END {
			printf "%d drains, %d of them inside %d intervals of 1 s or more\n", drains + n, inside, long
			exit !(rc == 0 && long > 0 && inside > 0)
		}'
}
drains_inside >/tmp/tiering-policy-drains.log 2>&1
rc=$?
ktap_result "hint faults during long policy intervals: $(tail -1 /tmp/tiering-policy-drains.log); data intact" $rc
[ $rc = 0 ] || ktap_diag </tmp/tiering-policy-drains.log

# -- node 0 full: the policy exchanges
restore /sys/kernel/mm/numa/demotion_enabled "$HUGE0" /proc/sys/vm/min_free_kbytes \
	/proc/sys/vm/lowmem_reserve_ratio
# Watermarks that THP settings (migcheck's) do not raise meanwhile: they
# recompute min_free_kbytes when it is below what THP recommends
echo 131072 >/proc/sys/vm/min_free_kbytes
# Node 0's DMA zone would count as room (lib/tiers.sh)
reserve_dma0
swap_off
echo 0 >/sys/kernel/mm/numa/demotion_enabled
cold=64 hot=32
# full ARGS...: migcheck of ${hot} MiB on node 2 awaited on node 0, with
# ${cold} MiB of untouched partners on node 0; once they are there, node 0
# is made full and the policy switched on (filled before, node 0 can keep
# free pages on its per-CPU lists, which the partners then take). Sets
# FULL_RC, migcheck's exit code.
# shellcheck disable=SC2317 # run through ktap_check
full() {
	local pid _
	rm -f /tmp/tiering-policy-ready
	promote --size 4096 --total "${hot}M" --cold "${cold}M" --timeout 90 \
		--ready /tmp/tiering-policy-ready "$@" &
	pid=$!
	for _ in $(seq 600); do
		{ [ ! -e /tmp/tiering-policy-ready ] && kill -0 "$pid" 2>/dev/null; } || break
		sleep 0.1
	done
	fill0 0
	echo "node 0: $(free0) MiB free, watermarks $(wmark0 min)/$(wmark0 low)/$(wmark0 high)"
	echo 1 >"$T/policy"
	wait "$pid"
	FULL_RC=$?
	echo 0 >"$T/policy"
	unfill0
	# What the policy did, since boot, for a run that fails
	for f in intervals scanned hot promoted exchanged; do
		printf 'policy_%s %s  ' "$f" "$(stat "policy_$f")"
	done
	echo
	return "$FULL_RC"
}
for e in "${engines[@]}"; do
	require "engine $e" mo_select "$e"
	x0=$(stat policy_exchanged)
	ktap_check "$e: node 0 full: half of ${hot} MiB in, hot and cold data intact" \
		full --await-pct 50
	x=$(($(stat policy_exchanged) - x0))
	ktap_check "$e: $x pages promoted by exchange" test "$x" -gt 0
done
require "engine cpu" mo_select cpu

# policy_tierbench FAST_MIB CSV ARGS...: tierbench ARGS on CPU 0, its first
# FAST_MIB placed on node 0 (--fast-init), node 0 then full (fill0), the
# policy on; its CSV to CSV and its last rows to the diagnostics. Sets rc,
# its exit code, and sum, its summary line.
policy_tierbench() {
	local fast=$1 csv=$2
	shift 2
	fill0 "$fast"
	echo 1 >$T/policy
	taskset -c 0 "$TIERBENCH" --fast-init "${fast}M" "$@" >"$csv" 2>&1
	rc=$?
	echo 0 >$T/policy
	unfill0
	tail -3 "$csv" | ktap_diag
	sum=$(grep '^summary' "$csv")
}

# -- a stable pattern: one hot window for the whole run, node 0 full.
# The partners on node 0 were written once, when fill0 made them, so
# their accessed bits are still set: the partner search moves a folio to
# the inactive list only when unused since it last looked, which costs
# one pass over node 0's active list first (90% at 16.7 to 21.4 s in
# three boots).
policy_tierbench 64 /tmp/tiering-policy-tb.csv --total 256M --hot 32M --period 40 --shifts 1
ktap_check "stable pattern: the hot set reaches 90% on node 0 (${sum:-no summary}), data intact" \
	sh -c "[ $rc = 0 ] && echo '$sum' | grep -q 't90=[0-9]'"
# The hot window's 8192 pages up and as many partners down; the 40 MiB
# of node-2 pages read once in the run must stay (a policy that took
# every page it saw referenced once would move them too)
moved=$(echo "$sum" | sed -n 's/.* moved=\([0-9]*\).*/\1/p')
ktap_check "stable pattern: no page moved twice in 40 s, ${moved:-?} moves (<= 2 x 8192 + 10%: pages read once stay)" \
	sh -c "echo '$sum' | grep -q ' wasted=0 ' && [ '${moved:-99999}' -le 18022 ]"

# -- a hot set that moves, node 0 full with room for one window: the
# first window comes in by exchange with the 16 MiB placed there at the
# start, and the second window's partners are then the first window's
# pages. They came in active, and nothing else ages a node kept full:
# without the policy's own deactivation (isolate_cold_anon_folios()) the
# second window stays out: t90 "3.0/-" with that call removed, "2.0/3.1"
# with it (one boot each)
policy_tierbench 16 /tmp/tiering-policy-tb2.csv --total 64M --hot 16M --period 25 --shifts 2
ktap_check "moving hot set, node 0 full: both windows reach 90% on node 0 (${sum:-no summary}), data intact" \
	sh -c "[ $rc = 0 ] && echo '$sum' | grep -Eq 't90=[0-9.]+/[0-9.]+ '"

# -- offline and online a node-2 memory block while the policy runs
# shellcheck disable=SC2317 # run through ktap_check
offline_online() {
	local b m i0 rc=1
	i0=$(stat policy_intervals)
	for b in /sys/devices/system/node/node2/memory*; do
		[ "$(cat "$b/state")" = online ] || continue
		[ "$(cat "$b/removable" 2>/dev/null || echo 1)" = 1 ] || continue
		m=$b
		if timeout 30 sh -c "echo offline >$b/state" 2>/dev/null; then
			rc=0
			break
		fi
	done
	[ "$rc" = 0 ] || { echo "no node-2 block could be offlined"; return 1; }
	echo "offlined $(basename "$m")"
	echo online_movable >"$m/state" 2>/dev/null || echo online >"$m/state" ||
		{ echo "$(basename "$m") not onlined again"; return 1; }
	sleep 1
	[ "$(stat policy_intervals)" -gt "$i0" ] || { echo "the policy stopped"; return 1; }
}
echo 1 >$T/policy
rm -f /tmp/tiering-policy-ready
# Awaited on node 3, where nothing moves them: it runs its 20 s
taskset -c 0 "$MIGCHECK" --src 2 --await 3 --writers 1 --readers 1 \
	--size 4096 --total 64M --timeout 20 \
	--ready /tmp/tiering-policy-ready >/tmp/tiering-policy-off.log 2>&1 &
pid=$!
for _ in $(seq 300); do
	{ [ ! -e /tmp/tiering-policy-ready ] && kill -0 $pid 2>/dev/null; } || break
	sleep 0.1
done
ktap_check "a node-2 block offlined and onlined again while the policy runs" offline_online
wait $pid
rc=$?
ktap_diag </tmp/tiering-policy-off.log
ktap_check "offline and online under the policy: data intact" \
	test "$(grep -c 'data intact, but' /tmp/tiering-policy-off.log)" = 1

# -- off under load
iso0=$(isolated)
echo 1 >$T/policy
(sleep 3; echo 0 >$T/policy) &
tog=$!
taskset -c 0 "$MIGCHECK" --src 2 --await 3 --writers 1 --readers 1 \
	--size 4096 --total 24M --timeout 8 >/tmp/tiering-policy-tog.log 2>&1
wait $tog
ktap_check "policy switched off under load: data intact" \
	grep -q 'data intact, but' /tmp/tiering-policy-tog.log
ktap_check "policy=0 under load: no kpromoted thread left" test "$(threads)" = 0
ktap_check "policy=0 under load: node 2 isolated pages back to $iso0" isolated_back "$iso0"

ktap_finished
