#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The series' own kselftest, tools/testing/selftests/mm/migrate_offload
# (kselftest_harness, built with the mm selftests from the same tree), run
# once per engine: cpu, mtcopy with 2 threads, dcbm on 2 swdma channels.
# Each run is one nested KTAP block; its cases are what get counted. The
# hugetlb cases run on any kernel, the rest need the series.
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
set -u
bin=${MEMACCEL_KSELFTEST:-$TOP/build/kselftest}/mm/migrate_offload
read -ra engines <<<"${MEMACCEL_MO_ENGINES:-cpu mtcopy-2 dcbm-2}"
ktap_plan ${#engines[@]}
[ -x "$bin" ] || ktap_bail_out "$bin not built (make selftests)"
restore $MO/batch_min $MO/engine
at_exit modprobe -r dcbm swdma mtcopy
at_exit write_value $MO/engine cpu
for e in "${engines[@]}"; do
	if ! mo_select "$e"; then
		ktap_fail "migrate_offload selftest under $e: cannot select the engine"
		continue
	fi
	echo "# engine: $(cat $MO/engine)"
	out=$("$bin" 2>&1)
	rc=$?
	# The harness prints TAP 13 at the top level: nest it one level down.
	printf '%s\n' "$out" | sed -e '/^TAP version/d' -e 's/^/    /'
	if [ $rc = 0 ]; then
		ktap_ok "migrate_offload selftest under $e"
	else
		ktap_fail "migrate_offload selftest under $e (exit $rc)"
	fi
done
ktap_finished
