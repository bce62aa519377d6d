#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: does compaction of a fragmented node 1 migrate anything, with
# the holes of migcheck --fragment at every other page (OLD, migcheck
# before this change) or with their parity flipped every 32 pages (NEW)?
# The hypothesis: isolate_freepages() probes every 32nd page once a
# pageblock gave it nothing, so with every other page kept, and the pages
# physically in order, it probes only kept pages and compaction migrates
# nothing (CI of 3b4cec7: offload.tap, "pgmigrate_success +0" after three
# tries). Runs OLD and NEW interleaved, N times each:
#   git show 3b4cec7:tools/migcheck/migcheck.c >/tmp/mc-old.c
#   gcc -O2 -std=gnu11 -Itools/lib -o build/migcheck-old /tmp/mc-old.c tools/lib/mmtest.c -lnuma -lpthread
#   scripts/vm-run --topology 2node --timeout 1200 -- \
#       env OLD=build/migcheck-old NEW=tools/migcheck/migcheck N=4 kernel/wip/experiments/fragment-stride.sh
#
# 2026-11-27, test kernel of 3b4cec7, fresh boot, N=4: OLD and NEW both
# migrated in every run (OLD 12238-16169 pages, NEW 15658-16672): a fresh
# node 1 does not show the failure, whose pfn layout came from the tests
# before it. So HOLES=PROG (holes-by-pfn.c beside this script) then sets
# the layout itself: holes at odd pfns only ("odd", the failing layout of
# the hypothesis) against holes flipped every 32 pfns ("flip").
# Same day, same kernel, second boot, HOLES=build/holes-by-pfn N=3:
# pgmigrate_success odd +32, +66, +1366 against flip +16542, +14288,
# +9890 (compact_free_scanned 13-18k against 38-44k): with holes at one
# pfn parity the free scanner finds next to nothing once its stride has
# grown, and compaction stops after a batch or a few.
set -u
N=${N:-4}
v() { awk -v k="$1" '$1 == k {print $2}' /proc/vmstat; }
run() {
	local bin=$1 ready=/tmp/frag.ready pid m0 s0 f0 i0
	rm -f $ready
	# shellcheck disable=SC2086 # bin may carry its arguments
	$bin >/tmp/frag.out 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -e $ready ] && break; sleep 0.1; done
	m0=$(v pgmigrate_success) s0=$(v compact_migrate_scanned)
	f0=$(v compact_free_scanned) i0=$(v compact_isolated)
	echo 1 >/sys/devices/system/node/node1/compact
	echo "$2: pgmigrate_success +$(($(v pgmigrate_success) - m0))" \
	     "compact_migrate_scanned +$(($(v compact_migrate_scanned) - s0))" \
	     "compact_free_scanned +$(($(v compact_free_scanned) - f0))" \
	     "compact_isolated +$(($(v compact_isolated) - i0))"
	kill -USR1 $pid
	wait $pid
	echo "$2: migcheck exit $? $(cat /tmp/frag.out)"
}
for r in $(seq "$N"); do
	if [ -n "${HOLES:-}" ]; then
		run "$HOLES odd 256 /tmp/frag.ready" "odd $r"
		run "$HOLES flip 256 /tmp/frag.ready" "flip $r"
	else
		run "$OLD --fragment --src 1 --total 256M --ready /tmp/frag.ready" "old $r"
		run "$NEW --fragment --src 1 --total 256M --ready /tmp/frag.ready" "new $r"
	fi
done
