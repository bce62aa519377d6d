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
# split_huge_page_test takes over 10 minutes under TCG (628 s measured in
# the 2node-4cpu VM for 3 real cases; its 9 page-cache cases skip without a
# filesystem with large folios). By default it is replaced, in a guest-local
# copy of the directory, by a stand-in that reports SKIP with this reason;
# MEMACCEL_SLOW_SELFTESTS=1 runs it.
if [ "${MEMACCEL_SLOW_SELFTESTS:-0}" != 1 ] && [[ " $cats " == *" thp "* ]]; then
	copy=$(mktemp -d /tmp/mm-selftests.XXXXXX)
	cp -a "$dir/." "$copy/"
	cat >"$copy/split_huge_page_test" <<'STUB'
#!/bin/sh
echo "split_huge_page_test not run: over 10 min under TCG; MEMACCEL_SLOW_SELFTESTS=1 runs it"
exit 4
STUB
	dir=$copy
fi
cd "$dir" || exit 1
./run_vmtests.sh -t "$cats" 2>&1
rc=$?
[ -n "${lf:-}" ] && umount "$lf" 2>/dev/null
exit $rc
