#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# migbench measures what it claims: every size and count moves and verifies,
# and it fails loudly on corrupt data or on folios of the wrong size.
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
mb=$TOP/tools/migbench/migbench
ktap_plan 9
# Table xfull: before each call DST is filled until only the guard is
# left above its low watermark, from an empty filler each time, so every
# folio size still gets its folios on DST (with a filler kept from the
# last call this run fails: killed at 2M, the filler still holding DST),
# and the fill converges with the per-CPU lists held still (as
# bench/engines.sh does). Swap is off for the run, as in the benchmark's
# guest: with run.sh's zram swap, filling DST reclaims, and a page swapped
# out has no node to verify. It runs first, with DST compacted: after the
# tests below, DST filled to the guard had no free 2 MB block left and a
# 64 KB call could not get its folios ("30 pages not moved").
# shellcheck disable=SC2317 # run through ktap_check
xfull_runs() {
	local csv=/tmp/migbench-xfull.csv rc=0
	rm -f "$csv"
	# shellcheck disable=SC2086 # one device per word
	[ -z "$xfull_swaps" ] || swapoff $xfull_swaps || return 1
	echo 1 >/sys/devices/system/node/node1/compact || return 1
	echo 100000 >/proc/sys/vm/percpu_pagelist_high_fraction || return 1
	"$mb" --tables xfull --sizes "$xfull_sizes" --total 8M --reps "$xfull_reps" --cpu 0 \
		--label test --csv "$csv" >/tmp/migbench-xfull.out 2>&1 || rc=1
	grep -E '^(xfull|xf |x2mf|migbench: FAIL)' /tmp/migbench-xfull.out
	[ "$rc" = 0 ] || return 1
	# sizes x repetitions x (exchange, two migrations), each with DST's room
	python3 - "$csv" "$xfull_rows" <<-'PY'
	import csv, sys
	rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["table"] in ("xf", "x2mf")]
	rooms = sorted(int(r["dst_room_pages"] or 0) for r in rows)
	print(len(rows), "rows;", "rooms:", rooms)
	sys.exit(not (len(rows) == int(sys.argv[2]) and rooms[0] > 0))
	PY
}
# Each call fills DST from empty: about a minute on the debug kernel under
# TCG (mlock faults in a node's worth of 4 KB pages), 151 s for the two
# calls of 2 MB folios. It checks the benchmark's fill, which make demo
# runs; exchange and migration into a full node are tested in make test
# by tiering.sh and tiering-damon.sh, with writers. So make test-full
# only, every size twice.
xfull_sizes=4K,64K,2M xfull_reps=2 xfull_rows=12
if [ "${MEMACCEL_TEST_FULL:-0}" != 1 ]; then
	ktap_skip "table xfull ($xfull_sizes) fills DST before each call and every move verifies" "make test-full runs it"
elif [ -d /sys/kernel/mm/exchange ]; then
	# Swap and the per-CPU lists come back however the stage ends (a
	# timeout's SIGTERM included): the later stages need the swap.
	xfull_swaps=$(awk 'NR > 1 {print $1}' /proc/swaps)
	swaps_back() {
		local d
		for d in $xfull_swaps; do
			grep -q "^$d " /proc/swaps || swapon "$d"
		done
	}
	at_exit swaps_back
	restore /proc/sys/vm/percpu_pagelist_high_fraction
	ktap_check "table xfull ($xfull_sizes) fills DST before each call and every move verifies" xfull_runs
	swaps_back
else
	ktap_skip "table xfull ($xfull_sizes) fills DST before each call and every move verifies" "no exchange in this kernel"
fi
ktap_check "all folio sizes 4K..2M move node 0 -> 1 and verify" \
	"$mb" --tables a --total 4M --reps 1 --label test
ktap_check "2 MB folio counts move and verify" "$mb" --tables b --counts 1,3 --reps 1 --label test
ktap_check "copy limit measures and verifies" "$mb" --tables limit --total 4M --reps 1 --label test
ktap_check "reverse direction node 1 -> 0" "$mb" --tables a --sizes 64K,2M --total 4M --reps 1 --src 1 --dst 0
ktap_expect_rc "corrupted data after the move is detected (exit 2)" 2 \
	"$mb" --tables a --sizes 16K --total 2M --reps 1 --inject-corrupt
# --hold-placement (bench/placement.sh): while it holds, no 2 MB folio
# moves between frames that alias in QEMU TCG's TLB (the CSV's last
# column), and its memory comes back when it stops.
. "$TOP/bench/placement.sh"
node_free_kb() { awk '/MemFree/ {s += $4} END {print s}' /sys/devices/system/node/node[01]/meminfo; }
# shellcheck disable=SC2317 # run through ktap_check
placement_moves() {
	local csv=/tmp/migbench-placement.csv rc=0
	rm -f "$csv"
	placement_hold >/dev/null || return 1
	"$mb" --tables b --counts 8 --reps 3 --label test --csv "$csv" >/dev/null || rc=1
	placement_release
	[ "$rc" = 0 ] || return 1
	tail -n +2 "$csv" | awk -F, '{n++; s += $NF} END {print "aliasing folios:", s + 0, "in", n, "moves"; exit !(n == 3 && s == 0)}'
}
# shellcheck disable=SC2317 # run through ktap_check
placement_freed() {
	local free1
	free1=$(node_free_kb)
	echo "free on nodes 0-1: $free0 kB before, $free1 kB after"
	[ "$free1" -ge $((free0 * 9 / 10)) ]
}
# The holder takes about 3 min on the debug kernel under TCG: make
# test-full only (the benchmarks use it, make test does not).
if [ "${MEMACCEL_TEST_FULL:-0}" = 1 ]; then
	free0=$(node_free_kb)
	ktap_check "with the placement held, no 2 MB folio moves between TLB-aliasing frames" placement_moves
	ktap_check "the held blocks are free again after the holder stops" placement_freed
else
	ktap_skip "with the placement held, no 2 MB folio moves between TLB-aliasing frames" "make test-full runs it"
	ktap_skip "the held blocks are free again after the holder stops" "make test-full runs it"
fi
# With every mTHP size off and migbench told not to touch sysfs, asking for
# 64K folios yields base pages: the size check must refuse to measure.
restore "$THP"/hugepages-*kB/enabled
for f in "$THP"/hugepages-*kB/enabled; do echo never >"$f"; done
ktap_expect_rc "wrong folio size is detected (exit 2)" 2 \
	"$mb" --tables a --sizes 64K --total 2M --reps 1 --no-mthp-setup
ktap_finished
