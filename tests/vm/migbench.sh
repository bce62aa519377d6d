#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# migbench measures what it claims: every size and count moves and verifies,
# and it fails loudly on corrupt data or on folios of the wrong size.
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
mb=$TOP/tools/migbench/migbench
ktap_plan 6
ktap_check "all folio sizes 4K..2M move node 0 -> 1 and verify" \
	"$mb" --tables a --total 4M --reps 1 --label test
ktap_check "2 MB folio counts move and verify" "$mb" --tables b --counts 1,3 --reps 1 --label test
ktap_check "copy limit measures and verifies" "$mb" --tables limit --total 4M --reps 1 --label test
ktap_check "reverse direction node 1 -> 0" "$mb" --tables a --sizes 64K,2M --total 4M --reps 1 --src 1 --dst 0
ktap_expect_rc "corrupted data after the move is detected (exit 2)" 2 \
	"$mb" --tables a --sizes 16K --total 2M --reps 1 --inject-corrupt
# With every mTHP size off and migbench told not to touch sysfs, asking for
# 64K folios yields base pages: the size check must refuse to measure.
restore "$THP"/hugepages-*kB/enabled
for f in "$THP"/hugepages-*kB/enabled; do echo never >"$f"; done
ktap_expect_rc "wrong folio size is detected (exit 2)" 2 \
	"$mb" --tables a --sizes 64K --total 2M --reps 1 --no-mthp-setup
ktap_finished
