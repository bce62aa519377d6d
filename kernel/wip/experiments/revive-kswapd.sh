#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: does revive_kswapd0 (tests/vm/lib/tiers.sh) end node 0's
# "hopeless" state? Run after something left it so, for example
# tests/vm/tiering.sh, whose exchange run does:
#   scripts/vm-run --topology 4node-tiered --xdir X --rwdir build/kselftest --timeout 900 -- \
#       sh -c 'env MEMACCEL_TOPOLOGY=4node-tiered tests/vm/run.sh X/ktap topology tiering;
#              kernel/wip/experiments/revive-kswapd.sh'
# 2026-11-27, test kernel of 739779c: tiering.sh 41/41, then "before:
# node_unreclaimable 1", "revive_kswapd0 exit 0; after: node_unreclaimable
# 0; pgdemote_direct +1415".
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tests/vm/lib/engines.sh"
# shellcheck source=/dev/null
. "$TOP/tests/vm/lib/tiers.sh"
d0=$(vmstat pgdemote_direct)
echo "before: $(node0_unreclaimable)"
revive_kswapd0
echo "revive_kswapd0 exit $?; after: $(node0_unreclaimable); pgdemote_direct +$(($(vmstat pgdemote_direct) - d0))"
