# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Helpers of the tiering tests on 4node-tiered, sourced after engines.sh:
#
#   free0              node 0's free memory, MiB
#   zfree0             the same, of its DMA32 zone alone
#   wmark0 min|low|high  node 0's DMA32 watermark (all its memory), MiB
#   fill0 MIB [below|above]  drop the page cache, and take huge pages from node 0
#                      so that, once MIB more are allocated there, it is
#                      left halfway between its low and high watermarks:
#                      below high, so full for a promotion, and above low,
#                      so kswapd stays asleep; with "below", halfway between
#                      min and low: kswapd is awake, and an allocation
#                      that does not reclaim (DAMON's migrations) has only
#                      the few MiB down to min; with "above", its DMA32
#                      zone at its high watermark (add a margin to MIB);
#                      with the per-CPU lists small (pcp_small)
#   zpages0 KEY        node 0's DMA32 "pages free", "min", "low", "high", pages
#   lowest_zfree0 PID  the fewest pages free in node 0's DMA32 zone, sampled
#                      every 0.2 s while PID runs
#   unfill0            give the huge pages back
#   pcp_small          keep the per-CPU free lists small from now on, and
#                      at exit as they were, and drain them (below)
#   reserve_dma0       reserve node 0's DMA zone against movable allocations
#                      (lowmem_reserve_ratio[0] = 1, below); the caller
#                      puts the old ratio back
#   node0_unreclaimable  "node_unreclaimable 1" when kswapd has given up on
#                      node 0 (6.12's "hopeless node"), else 0
#   revive_kswapd0     if it has, make a reclaim on node 0 succeed, which
#                      ends that (below); fails if node 0 stays so
#   stat NAME          the tiering counter stats/NAME
#   isolated           node 2's isolated anonymous pages
#   isolated_back N    wait up to 5 s for isolated to be N or fewer; else
#                      say how many there are and fail
#   threads            how many kpromoted threads run
#   snap FILE          the tiering stats and /proc/vmstat's promotion,
#                      exchange, demotion and reclaim items, to FILE
#   snap_diff FILE     what changed since snap FILE: "name +delta" lines
#   swap_off           switch every swap device off, and at exit on again
#                      (run.sh's zram swap is not in fstab: swapon -a
#                      would leave it off for the tests after)
#   tlb_churn CPU      start a process on CPU that wakes 50 times a second
#                      (below); its pid is in TLB_CHURN_PID, and at_exit
#                      kills it where ktap.sh is sourced
#
# The watermarks change as huge pages are taken (unless min_free_kbytes was
# set by hand), so fill0 adjusts twice.
N0=/sys/devices/system/node/node0
HUGE0=$N0/hugepages/hugepages-2048kB/nr_hugepages
free0() { awk '/MemFree/ {print int($4 / 1024)}' $N0/meminfo; }
# zone0 KEY: the value of /proc/zoneinfo's line KEY ("pages free", "min",
# "low", "high") for node 0's DMA32 zone (all its memory), MiB
zone0() {
	awk -v k="$1" '/^Node/ {n = $2; z = $4; next}
		n == "0," && z == "DMA32" {v = $NF; $NF = ""; sub(/ +$/, ""); sub(/^ +/, ""); if ($0 == k) print int(v / 256)}' /proc/zoneinfo
}
zfree0() { zone0 "pages free"; }
wmark0() { zone0 "$1"; }
zpages0() {
	awk -v k="$1" '/^Node/ {n = $2; z = $4; next}
		n == "0," && z == "DMA32" {v = $NF; $NF = ""; sub(/ +$/, ""); sub(/^ +/, ""); if ($0 == k) print v}' /proc/zoneinfo
}
lowest_zfree0() {
	local f m=
	while kill -0 "$1" 2>/dev/null; do
		f=$(zpages0 "pages free")
		{ [ -z "$m" ] || [ "$f" -lt "$m" ]; } && m=$f
		sleep 0.2
	done
	echo "${m:-0}"
}
fill0() {
	local want _ lo=low hi=high free=free0
	# Between min and low the margin is a few MiB: count DMA32 alone
	[ "${2:-}" = below ] && lo=min hi=low free=zfree0
	# Just above high: node 0 compacted first, so that the huge pages
	# asked for can be had, which the other modes do not need as much
	[ "${2:-}" = above ] && lo=high free=zfree0 &&
		echo 1 >$N0/compact
	echo 3 >/proc/sys/vm/drop_caches
	pcp_small
	for _ in 1 2 3; do
		want=$(($1 + ($(wmark0 $lo) + $(wmark0 $hi)) / 2))
		echo $(($(cat $HUGE0) + ($($free) - want) / 2)) >$HUGE0
	done
}
unfill0() { echo 0 >$HUGE0; }
# Free pages on the per-CPU lists count neither in MemFree nor in "pages
# free", and the next allocations on that CPU take them without moving
# either. 6.12 lets a CPU's list of a zone grow to an eighth of the zone
# over the zone's node's CPUs (zone_set_pageset_high_and_batch(); node 0
# has one): about 240 MiB of node 0's DMA32 zone per CPU. A fill measured
# that way left node 0 balanced in a CI run, and 1615 pages were promoted
# into the "full" node. A percpu_pagelist_high_fraction of 65536 bounds
# each list at four batches (under 1 MiB). Writing it leaves each list's
# current mark where it was: each stat_refresh lowers the mark by an
# eighth (or to 32 batches below the list's length) and drains the list
# down to it (decay_pcp_high()), so 48 of them take any mark to the
# bound. Only where ktap.sh is loaded (the tests, which put the sysctl
# back at exit): the residency benchmark measures with the kernel's own.
PCP_FRACTION=/proc/sys/vm/percpu_pagelist_high_fraction
pcp_small() {
	local _
	declare -F restore >/dev/null || return 0
	if [ "$(cat $PCP_FRACTION)" = 0 ]; then
		restore $PCP_FRACTION
		echo 65536 >$PCP_FRACTION
	fi
	for _ in $(seq 48); do
		echo 1 >/proc/sys/vm/stat_refresh
	done
}
# Node 0's 16 MiB DMA zone: with the default lowmem_reserve_ratio its
# reserve against movable allocations is 1/256 of a 2 GiB node, 8 MiB, so
# with its own free pages it counts as balanced (pgdat_balanced() and
# migrate_balanced_pgdat() take any zone that is): kswapd neither reclaims
# nor demotes for a full node 0, and a promotion counts it as having room.
# In a node of 64 GiB the reserve would be 256 MiB: ratio 1 gives the DMA
# zone that proportion here.
reserve_dma0() {
	local r
	read -ra r </proc/sys/vm/lowmem_reserve_ratio
	r[0]=1
	echo "${r[*]}" >/proc/sys/vm/lowmem_reserve_ratio
}
# 6.12 resets kswapd's failure count on a node when shrink_node() there
# reclaims anything, and wakeup_kswapd() wakes it again from then on. So:
# 8 MiB of anonymous pages bound to node 0 (migcheck, in a memcg of its
# own) and that memcg's memory.reclaim, with demotion on, which demotes
# them to node 2 (counted in pgdemote_direct).
revive_kswapd0() {
	local cg=/sys/fs/cgroup/memaccel-revive0 dem pid _
	[ "$(node0_unreclaimable)" = "node_unreclaimable 1" ] || return 0
	dem=$(cat /sys/kernel/mm/numa/demotion_enabled)
	echo 1 >/sys/kernel/mm/numa/demotion_enabled
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control ||
		echo +memory >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p $cg
	rm -f /tmp/revive0-ready
	sh -c "echo \$\$ >$cg/cgroup.procs && exec \"\$@\"" revive \
		"$MIGCHECK" --src 0 --await 2 --await-pct 1 --timeout 20 \
		--writers 0 --readers 0 --size 4096 --total 8M \
		--ready /tmp/revive0-ready >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do
		[ -e /tmp/revive0-ready ] && break
		sleep 0.1
	done
	echo 8M >$cg/memory.reclaim 2>/dev/null
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rmdir $cg
	echo "$dem" >/sys/kernel/mm/numa/demotion_enabled
	[ "$(node0_unreclaimable)" = "node_unreclaimable 0" ]
}
node0_unreclaimable() {
	awk '/^Node 0,/ {n = 1} n && $1 == "node_unreclaimable:" {print "node_unreclaimable", $2; exit}' /proc/zoneinfo
}
stat() { cat "$MO/tiering/stats/$1"; }
swap_off() {
	local d _
	while read -r d _; do
		at_exit swapon "$d"
	done < <(tail -n +2 /proc/swaps)
	swapoff -a 2>/dev/null
}
snap() {
	{
		for f in "$MO"/tiering/stats/*; do echo "${f##*/} $(cat "$f")"; done
		grep -E '^(numa_hint_faults|numa_pages_migrated|pgpromote_|pgexchange_|pgdemote_|pageoutrun|allocstall|compact_stall|oom_kill)' /proc/vmstat
	} | sort >"$1"
}
snap_diff() {
	snap "$1.now"
	join "$1" "$1.now" | awk '$3 != $2 {printf "%s +%d\n", $1, $3 - $2}'
}
isolated() { awk '$1 == "nr_isolated_anon" {print $2}' /sys/devices/system/node/node2/vmstat; }
threads() { pgrep -c '^kpromoted' || true; }
# shellcheck disable=SC2317 # run through ktap_check
isolated_back() {
	local i
	for ((i = 0; i < 50; i++)); do
		[ "$(isolated)" -le "$1" ] && return 0
		sleep 0.1
	done
	echo "node2 nr_isolated_anon $(isolated), was $1"
	return 1
}
# Accessed bits in the guest need tlb_churn on the CPU of a pinned workload.
# x86 clears a PTE's accessed bit without a TLB flush and counts on "a
# context switch or a VM operation" to flush it eventually (the comment on
# ptep_clear_flush_young()). QEMU's software TLB grows to hold the whole
# working set of a writer that runs alone on its CPU (8192 entries for
# 32 MiB of 4 KiB pages; a real second-level TLB holds about 2048), and it
# sets an accessed bit only when it refills an entry, so DAMON and
# folio_referenced() see that writer as idle for as long as nothing else
# runs there. A switch to another mm writes CR3, which empties QEMU's TLB.
# Measured in one boot, migcheck --writers 1 --readers 1 on CPU 0 over
# 32 MiB of node 2, DAMON "stat" on node 2: 0 regions tried per 5 s alone
# (after the first minute), 290-360 with tlb_churn 0, three times each
# (kernel/wip/experiments/tlb-accessed-bits.sh).
tlb_churn() {
	taskset -c "$1" python3 -c 'import time
while True:
    time.sleep(0.02)' &
	TLB_CHURN_PID=$!
	if declare -F at_exit >/dev/null; then
		at_exit kill "$TLB_CHURN_PID"
	fi
}
