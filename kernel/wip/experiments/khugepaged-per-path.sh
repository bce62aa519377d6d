#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: upstream khugepaged selftest alone under each tiering path
# alone (nothing; numa_balancing=2 with demotion; plus promote_batch and
# promote_exchange; the policy at 200 ms), for the thp-beside-tiering
# failure (issue 14, open). No swap and no hugetlb reservation here:
# the swap-out cases fail by design. OUT/summary has a line per setting.
#   scripts/vm-run --topology 4node-tiered --xdir X --rwdir build/kselftest \
#       --timeout 800 -- kernel/wip/experiments/khugepaged-per-path.sh X/out
out=$(realpath -m "$1")
mkdir -p "$out"
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
T=/sys/kernel/mm/migrate_offload/tiering
echo 1 >/sys/kernel/mm/numa/demotion_enabled
run() {
	local name=$1
	( cd "$TOP/build/kselftest/mm" && timeout 300 ./khugepaged >"$out/$name.log" 2>&1 ); rc=$?
	f=$(grep -c "Failed to allocate huge page" "$out/$name.log")
	echo "$name rc=$rc failed_alloc=$f fallback=$(awk '$1=="thp_fault_fallback"{print $2}' /proc/vmstat) migr=$(awk '$1=="thp_migration_success"{print $2}' /proc/vmstat) promote=$(awk '$1=="pgpromote_success"{print $2}' /proc/vmstat)" | tee -a "$out/summary"
}
echo 0 >/proc/sys/kernel/numa_balancing; echo 0 >$T/policy; echo 0 >$T/promote_batch
run none
echo 2 >/proc/sys/kernel/numa_balancing
run nb2
echo 1 >$T/promote_batch; echo 1 >$T/promote_exchange
run nb2-batch
echo 0 >$T/promote_batch; echo 0 >/proc/sys/kernel/numa_balancing; echo 200 >$T/policy_interval_ms; echo 1 >$T/policy
run policy
echo 0 >$T/policy
