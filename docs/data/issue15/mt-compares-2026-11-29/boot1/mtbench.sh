#!/bin/bash
# mt's compares (issue 15, session 17): one wall-clock boot of the bench
# kernel at 78 patches, the prefix set (every page shares a 2 KiB prefix:
# compares are long) and the mixed set, cpu and mt, xxhash, batch sizes
# 1, 256 and 1024 (mt shares a level's compares from 512 of them, its
# default thread_min_compares 256), 4 runs interleaved
out=$1
cd /work/main || exit 4
mtstats() { modprobe ksm_mt; for f in split_batches split_levels helper_pages helper_compares unstarted_helpers; do printf '%s=%s ' $f "$(cat /sys/module/ksm_mt/parameters/$f)"; done; echo; }
echo "ksm_mt before: $(mtstats)"
KSMBENCH_RUNS=4 KSMBENCH_SIZES="1 256 1024" KSMBENCH_ENGINES="cpu mt" KSMBENCH_ALGO=xxhash \
	bench/ksm-sets.sh "$out" prefix mixed
echo "ksm_mt after: $(mtstats)"
echo mtbench-done
