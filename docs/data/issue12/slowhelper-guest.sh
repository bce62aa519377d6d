#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A slow helper on purpose: QEMU TCG shrinks a vCPU's software TLB, at its
# next full flush, to what the last 100 ms used. Two tiny processes
# switching on CPU 1 for a second (each switch writes CR3, a full flush)
# leave CPU 1 idle with a TLB of a few dozen entries, and a kworker that
# copies there afterwards gets no flush to grow it back. A 2 MB folio's
# source and destination are then a multiple of that size apart, so every
# copy on CPU 1 aliases in it (docs/benchmarks.md, "What QEMU does").
# migbench runs on CPU 0, so mtcopy's helper is the kworker on CPU 1.
#
# Per round, each configuration moves 4 x 2 MB folios (table b) once on a
# CPU 1 left as it was ("plain") and once right after the shrink
# ("shrunk"): mtcopy with 2 threads as patches 20-33 built it ("old"),
# with patch 34 ("new"), and cpu. Both mtcopy modules are built out of
# tree from the two versions of drivers/migrate_offload/mtcopy against
# the same bench kernel; each is loaded in turn under the name mtcopy.
#   TLBSHRINK=... slowhelper-guest.sh REPO OLD_KO NEW_KO CSV [ROUNDS]
#   (ROUNDS default 8; SHRINK_PAGES: the PAGES of each shrunk state)
set -u
. "$(dirname "$0")/oldnew-lib.sh"
rounds=${5:-8}

# shrink PAGES: two processes on CPU 1 switch for a second, each touching
# PAGES pages between switches (TLBSHRINK: build/tlbshrink/tlbshrink)
shrink() {
	taskset -c 1 "$TLBSHRINK" "$1" 1
	sleep 0.3
}

use() {
	echo cpu >$MO/engine
	case $1 in
	cpu) return ;;
	old) ko=$old ;;
	new) ko=$new ;;
	esac
	rmmod mtcopy 2>/dev/null
	insmod "$ko" || exit 1
	echo 2 >$MTCOPY/threads
	echo mtcopy >$MO/engine
}

stats() {
	local f s=
	[ -d "$MO_ENGINES/mtcopy" ] || return 0
	for f in "$MO_ENGINES"/mtcopy/*; do s+="${f##*/}=$(cat "$f") "; done
	echo "${s% }"
}

for r in $(seq 0 $((rounds - 1))); do
	for cfg in old new cpu; do
		use "$cfg"
		for state in plain ${SHRINK_PAGES:-32 150 300}; do
			[ "$state" = plain ] || shrink "$state"
			before=$(stats)
			taskset -c 0 tools/migbench/migbench --tables b --counts 4 \
				--reps 1 --first-rep "$r" --label "$cfg-$state" \
				--csv "$csv" | grep -E '^b '
			echo "round $r $cfg-$state mtcopy before: $before"
			echo "round $r $cfg-$state mtcopy after: $(stats)"
		done
	done
done
echo cpu >$MO/engine
