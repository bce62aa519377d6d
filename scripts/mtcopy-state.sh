#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Issue 12's diagnostic (a benchmark, not a test): boot the benchmark kernel
# in the 2-node VM BOOTS times and run bench/mtcopy-state.sh in each boot:
# mtcopy-2T first after boot, interleaved with cpu at 4 x 2 MB, with trace
# events on, and the tlbskew probe (bench/tlbskew) on each CPU.
# Then scripts/mtcopy_trace.py summarises each boot: GB/s per repetition,
# the helper's work time against the migrating thread's copy, the probe.
#   scripts/mtcopy-state.sh [BOOTS] [ROUNDS]     (defaults 2, 3)
# Output: build/mtcopy-state/boot<N>/. MEMACCEL_VM_QEMU_OPTS,
# MTCOPY_STATE_COUNTS and MIGBENCH_PLACEMENT pass through.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=env.sh
. "$top/scripts/env.sh"
cd "$top"
boots=${1:-2}
rounds=${2:-3}
scripts/setup.sh >/dev/null
[ -d build/linux/.git ] || scripts/kernel-tree.sh
make -s -C tools
scripts/build-kernel.sh bench
kdir=$top/build/kbuild-bench
mod=$top/build/tlbskew
rm -rf "$mod"
cp -r bench/tlbskew "$mod"
make -s -C "$kdir" M="$mod" modules
x=$top/build/mtcopy-state
rm -rf "$x"
for b in $(seq 1 "$boots"); do
	mkdir -p "$x/boot$b"
	run_guarded scripts/vm-run --kernel "$kdir" --topology 2node --xdir "$x/boot$b" \
		--timeout 2400 -- env MTCOPY_STATE_COUNTS="${MTCOPY_STATE_COUNTS:-4}" \
		MIGBENCH_PLACEMENT="${MIGBENCH_PLACEMENT:-hold}" bench/mtcopy-state.sh "$x/boot$b/out" \
		"$mod/tlbskew.ko" "$rounds"
	python3 scripts/mtcopy_trace.py "$x/boot$b/out" | tee "$x/boot$b/summary.txt"
done
