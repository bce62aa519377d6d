#!/bin/bash
# mt's compares (issue 15, 2026-11-29): one wall-clock boot of the bench
# kernel, the prefix set (every page shares a 2 KiB prefix: compares are
# long) and the mixed set, xxhash, batch sizes 1, 256 and 1024 (mt shares
# a level's compares from 512 of them, at its default thread_min_compares
# 256), 4 runs interleaved; mt's counters before and after.
#   mtbench.sh OUTDIR ["cpu mt"]   boot 1: "cpu mt", boot 2: "mt cpu"
# in the guest: scripts/vm-run --kernel build/kbuild-bench --topology 2node
# --xdir X -- docs/data/issue15/mt-compares-2026-11-29/mtbench.sh X/out
out=$1
cd "$(dirname "$0")/../../../.." || exit 4
mtstats() {
	modprobe ksm_mt
	for f in split_batches split_levels helper_pages helper_compares unstarted_helpers; do
		printf '%s=%s ' $f "$(cat /sys/module/ksm_mt/parameters/$f)"
	done
	echo
}
echo "ksm_mt before: $(mtstats)"
KSMBENCH_RUNS=4 KSMBENCH_SIZES="1 256 1024" KSMBENCH_ENGINES="${2:-cpu mt}" KSMBENCH_ALGO=xxhash \
	bench/ksm-sets.sh "$out" prefix mixed
echo "ksm_mt after: $(mtstats)"
