#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of the check of migbench --hold-placement (docs/benchmarks.md,
# "With the placement held"): tables (a) and (b) at 64K and 2M without the
# holder, then with it, printing each row's TLB-alias count, the time the
# holder took and the nodes' free memory before and after. Run from the
# repository root, as recorded (migbench of 819cd59, before --b-min):
#   scripts/vm-run --kernel build/kbuild-test --topology 2node --xdir build/place -- \
#       docs/data/issue12/placement-check.sh
cd "$(dirname "$0")/../../.." || exit 1
. tests/vm/lib/engines.sh
. bench/placement.sh
MB=tools/migbench/migbench
echo "== any"
"$MB" --tables a,b --sizes 64K,2M --counts 1,4,16 --reps 2 --total 32M | grep -E "^(a|b) "
echo "== hold"
t0=$(date +%s)
placement_hold
echo "hold took $(($(date +%s) - t0)) s"
grep -E "MemFree" /sys/devices/system/node/node*/meminfo
"$MB" --tables a,b --sizes 64K,2M --counts 1,4,16 --reps 2 --total 32M | grep -E "^(a|b) "
placement_release
grep -E "MemFree" /sys/devices/system/node/node*/meminfo
