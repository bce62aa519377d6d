#!/bin/bash
# vanilla boot: vmstat deltas around each 2 MB move (compaction, reclaim)
set -u
out=$1
mb=$(dirname "$0")/../tools/migbench/migbench
keys="compact_stall compact_fail compact_success compact_migrate_scanned compact_free_scanned compact_isolated pgmigrate_success thp_migration_success thp_migration_split allocstall_movable allocstall_normal pgscan_direct kcompactd_wake"
snapv() { grep -E "^($(echo "$keys" | tr ' ' '|')) " /proc/vmstat; }
for r in 1 2 3 4; do
	snapv >/tmp/v0
	bb0=$(awk '$2=="1," && $4=="Normal" {print $NF+$(NF-1)+$(NF-2)}' /proc/buddyinfo)
	"$mb" --tables b --counts 4 --reps 2 --label "van r$r" 2>&1 | grep -E "^b " | tee -a "$out"
	snapv >/tmp/v1
	echo "r$r node1 order 8-10 blocks before: $bb0; vmstat deltas: $(join /tmp/v0 /tmp/v1 | awk '$3-$2 {printf "%s +%d ", $1, $3-$2}')" | tee -a "$out"
	"$mb" --tables a --sizes 64K --reps 1 --label "van r$r 64K" 2>&1 | grep -E "^a " | tee -a "$out"
done
tee -a "$out" </proc/buddyinfo
