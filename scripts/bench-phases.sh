#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-phases: build the benchmark kernel, boot the 2-node VM and
# measure where the time of a migration goes (bench/phases.sh),
# then print the per-phase table (scripts/results.py phases) to results/<run>/phases.md.
#   REPS (default 7), TOTAL (bytes per move, default 32M),
#   MEMACCEL_VM_QEMU_OPTS (e.g. "-icount shift=0": instruction-count time,
#   for software overhead only, never for bandwidth).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=env.sh
. "$top/scripts/env.sh"
cd "$top"
reps=${REPS:-7}
total=${TOTAL:-32M}
scripts/setup.sh
scripts/kernel-tree.sh
make -s -C tools
scripts/build-kernel.sh bench
kdir=build/kbuild-bench
release=$(cat $kdir/include/config/kernel.release)
x=build/phases
rm -rf "$x"
mkdir -p "$x"
run_guarded scripts/vm-run --kernel "$kdir" --topology 2node --xdir "$x" --timeout 3600 -- \
	bench/phases.sh "$x/phases.csv" "$reps" "$total"
npatch=$(git -C build/linux rev-list --count memaccel-base..HEAD)
run=$(new_results_dir)
out=$run/phases${MEMACCEL_VM_QEMU_OPTS:+-icount}.md
python3 scripts/results.py phases "$x/phases.csv" --md "$out" \
	--meta "command=make bench-phases (REPS=$reps TOTAL=$total${MEMACCEL_VM_QEMU_OPTS:+ MEMACCEL_VM_QEMU_OPTS=\"$MEMACCEL_VM_QEMU_OPTS\"})" \
	--meta "kernel=$release: linux-source-6.12 + $npatch patches, bench config (no debug options)" \
	--meta "topology=2node: 2 vCPUs, nodes 0 and 1 with one CPU each, QEMU TCG${MEMACCEL_VM_QEMU_OPTS:+ $MEMACCEL_VM_QEMU_OPTS}" \
	--meta "move=move_pages(2) of $total node 0 -> 1 by migbench, one address per folio, batch_max 512, batch_min 1; engines interleaved within each repetition" \
	--meta "engines=cpu: batch copy off, the move phase copies (the vanilla path); mtcopy-1: batch path, the migrating thread copies ahead; mtcopy-2: two threads; dcbm-2: 2 swdma channels (kthreads copying with the CPU, no latency model)" \
	--meta "memcpy=node 0 -> node 1, 1 thread, $total, timed before each size in each repetition" \
	--meta "host=$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
	--meta "date=$(date -u +%Y-%m-%d)"
cp "$x/phases.csv" "$run/phases${MEMACCEL_VM_QEMU_OPTS:+-icount}.csv"
echo "results: ${out#"$top"/}; results/latest points at ${run#"$top"/}"
