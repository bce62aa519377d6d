#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the kernel and modules for the VM with ccache.
#   build-kernel.sh FLAVOR [TREE]   (FLAVOR: test | bench)
# Output in build/kbuild-FLAVOR (or $KBUILD_OUT). Prints the wall time.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
flavor=${1:?usage: build-kernel.sh test|bench [tree]}
tree=${2:-$top/build/linux}
out=${KBUILD_OUT:-$top/build/kbuild-$flavor}
export KBUILD_OUT=$out
"$top/scripts/kconfig.sh" "$flavor" "$tree"
# Stable build metadata so ccache hits across trees and runs.
export KBUILD_BUILD_USER=memaccel KBUILD_BUILD_HOST=memaccel
export KBUILD_BUILD_TIMESTAMP="@0"
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G} CCACHE_BASEDIR=$top/build
start=$(date +%s)
log=$out/build.log
if ! make -C "$tree" O="$out" -j"$(nproc)" CC="ccache gcc" HOSTCC="ccache gcc" \
	bzImage modules >"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -30 >&2
	echo "build-kernel: build failed, full log: $log" >&2
	exit 1
fi
echo "build-kernel: $flavor kernel $(cat "$out/include/config/kernel.release") built in $(( $(date +%s) - start ))s ($out)"
