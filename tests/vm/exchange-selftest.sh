#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The series' exchange kselftest, tools/testing/selftests/mm/exchange_pages
# (kselftest_harness, built with the mm selftests from the same tree), run
# once as one nested KTAP block whose cases are what get counted. The
# exchange has one data path today, the CPU swap, so no engine is chosen.
# On a kernel without MPOL_MF_EXCHANGE every case skips.
. "$(dirname "$0")/lib/ktap.sh"
set -u
bin=${MEMACCEL_KSELFTEST:-$TOP/build/kselftest}/mm/exchange_pages
ktap_plan 1
[ -x "$bin" ] || ktap_bail_out "$bin not built (make selftests)"
out=$("$bin" 2>&1)
rc=$?
# The harness prints TAP 13 at the top level: nest it one level down.
printf '%s\n' "$out" | sed -e '/^TAP version/d' -e 's/^/    /'
ktap_result "exchange_pages selftest" $rc
ktap_finished
