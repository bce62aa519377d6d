#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Upstream mm selftests built from the same kernel tree (run_vmtests.sh),
# categories in MEMACCEL_MM_CATEGORIES. Their TAP goes through unchanged.
. "$(dirname "$0")/lib.sh"
dir=${MEMACCEL_KSELFTEST:-$TOP/build/kselftest}/mm
cats=${MEMACCEL_MM_CATEGORIES:-migration ksm ksm_numa thp cow}
if [ ! -x "$dir/run_vmtests.sh" ]; then
	ktap_plan 1
	ktap_fail "mm selftests not built in $dir (make selftests)"
	ktap_exit
fi
cd "$dir" || exit 1
# run_vmtests.sh prints its TAP with a "# " prefix on everything else.
./run_vmtests.sh -t "$cats" 2>&1
