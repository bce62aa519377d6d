#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mtcopy before and after patch 34, in one boot: the mtcopy of patches
# 20-33 ("old") and of patch 34 ("new"), both built out of tree against
# the same bench kernel and loaded in turn under the name mtcopy, at 2
# threads with split_folios Y ("s") and N ("w"), and cpu; interleaved by
# round, placement held. migbench tables a and b; mtcopy's counters
# after each run.
#   ab34-guest.sh REPO OLD_KO NEW_KO CSV [ROUNDS] [THREADS]  (8, 2)
set -u
. "$(dirname "$0")/oldnew-lib.sh"
rounds=${5:-8} threads=${6:-2}

use() {
	echo cpu >$MO/engine
	[ "$1" = cpu ] && return
	rmmod mtcopy 2>/dev/null
	case $1 in
	old-*) insmod "$old" || exit 1 ;;
	new-*) insmod "$new" || exit 1 ;;
	esac
	echo "$threads" >$MTCOPY/threads
	case $1 in
	*s) echo Y >$MTCOPY/split_folios ;;
	*w) echo N >$MTCOPY/split_folios ;;
	esac
	echo mtcopy >$MO/engine
}

for r in $(seq 0 $((rounds - 1))); do
	for cfg in old-s new-s cpu old-w new-w; do
		use "$cfg"
		tools/migbench/migbench --tables a,b --sizes 64K,2M --counts 1,4,16 \
			--reps 1 --first-rep "$r" --label "$cfg" --csv "$csv" >/dev/null
		s=
		if [ -d "$MO_ENGINES/mtcopy" ]; then
			for f in "$MO_ENGINES"/mtcopy/*; do s+="${f##*/}=$(cat "$f") "; done
		fi
		echo "round $r $cfg: ${s% }"
	done
done
echo cpu >$MO/engine
