# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Node 0 of 4node-tiered made full, for the tiering tests:
#
#   free0              node 0's free memory, MiB
#   zfree0             the same, of its DMA32 zone alone
#   wmark0 min|low|high  node 0's DMA32 watermark (all its memory), MiB
#   fill0 MIB [below]  drop the page cache, and take huge pages from node 0
#                      so that, once MIB more are allocated there, it is
#                      left halfway between its low and high watermarks:
#                      below high, so full for a promotion, and above low,
#                      so kswapd stays asleep; with "below", halfway between
#                      min and low: kswapd is awake, and an allocation
#                      that does not reclaim (DAMON's migrations) has only
#                      the few MiB down to min
#   unfill0            give the huge pages back
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
fill0() {
	local want _ lo=low hi=high free=free0
	# Between min and low the margin is a few MiB: count DMA32 alone
	[ "${2:-}" = below ] && lo=min hi=low free=zfree0
	echo 3 >/proc/sys/vm/drop_caches
	for _ in 1 2 3; do
		want=$(($1 + ($(wmark0 $lo) + $(wmark0 $hi)) / 2))
		echo $(($(cat $HUGE0) + ($($free) - want) / 2)) >$HUGE0
	done
}
unfill0() { echo 0 >$HUGE0; }
