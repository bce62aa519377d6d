#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build and install the upstream mm selftests from build/linux into
# build/kselftest (objects in build/kselftest-obj; the source tree stays clean).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-$top/build/linux}
obj=$top/build/kselftest-obj
inst=$top/build/kselftest
mkdir -p "$obj" "$inst"
log=$obj/build.log
start=$(date +%s)
# Debian's 6.12.117 khugepaged.c uses KSFT_SKIP without including
# kselftest.h (a stable backport slip); force the include rather than patch
# the base. The header has include guards, so other tests are unaffected.
usercflags="-include $tree/tools/testing/selftests/kselftest.h"
# Kernel UAPI headers of this tree for the selftests.
if ! make -C "$tree" O="$obj/hdr" headers >"$log" 2>&1 ||
   ! make -C "$tree/tools/testing/selftests" TARGETS=mm O="$obj" \
	KHDR_INCLUDES="-isystem $obj/hdr/usr/include" USERCFLAGS="$usercflags" \
	INSTALL_PATH="$inst" -j"$(nproc)" install >>"$log" 2>&1; then
	grep -E 'error' "$log" | head -20 >&2
	echo "build-selftests: failed, full log: $log" >&2
	exit 1
fi
for b in migration ksm_tests ksm_functional_tests cow khugepaged transhuge-stress split_huge_page_test; do
	[ -x "$inst/mm/$b" ] || { echo "build-selftests: $b was not built (see $log)" >&2; exit 1; }
done
echo "build-selftests: mm selftests in $inst/mm ($(( $(date +%s) - start ))s)"
