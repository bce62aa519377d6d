#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: set up, build the vanilla (base) and the patched benchmark
# kernels and the tools, boot each in the 2-node VM, run migbench (vanilla;
# patched with the cpu engine and mtcopy with 1 and 2 threads, each also
# trading folios by exchange against two migrations (table x); dcbm over
# swdma with 1, 2, 4, 8 channels, the DSA-2LM workloads and the compaction
# experiment), then boot the patched kernel in the 4node-tiered VM for the
# hot-set residency benchmark (bench/tiering.sh, TIERBENCH_RUNS [3] and
# TIERBENCH_ARGS), and the 2-node VM for KSM at batch sizes 1-1024
# (bench/ksm.sh, KSMBENCH_RUNS [3] and KSMBENCH_ARGS), print the tables
# side by side and write
# results/<date>-<commit>/ (markdown, CSV, PNG, the guest logs; results/latest
# points at it).
# MIGBENCH_ARGS overrides migbench's defaults (e.g. "--reps 3 --total 32M");
# ENGINES the engines run on the patched kernel [cpu mtcopy-1 mtcopy-2
# dcbm-1s:x] (dcbm-1s:x: dcbm with staging, only the exchange table).
# MIGBENCH_PLACEMENT=any measures without holding the 2 MB blocks that
# alias in QEMU TCG's TLB (bench/placement.sh) [hold].
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=env.sh
. "$top/scripts/env.sh"
cd "$top"
. kernel/BASE

step setup
scripts/setup.sh
step kernel tree
[ -d build/linux/.git ] || scripts/kernel-tree.sh
# The vanilla kernel: a worktree of the same repository at the base tag.
van=$top/build/linux-vanilla
if [ ! -d "$van" ]; then
	git -C build/linux worktree prune
	git -C build/linux worktree add -q --detach "$van" memaccel-base
fi
git -C "$van" checkout -q --detach memaccel-base
step build: tools
make -s -C tools
step build: vanilla benchmark kernel
KBUILD_OUT=$top/build/kbuild-bench-vanilla scripts/build-kernel.sh bench "$van"
step build: patched benchmark kernel
scripts/build-kernel.sh bench
kvan=build/kbuild-bench-vanilla
kdir=build/kbuild-bench
release=$(cat $kdir/include/config/kernel.release)
release_van=$(cat $kvan/include/config/kernel.release)
npatch=$(git -C build/linux rev-list --count memaccel-base..HEAD)
engines=${ENGINES:-cpu mtcopy-1 mtcopy-2 dcbm-1s:x}
placement=${MIGBENCH_PLACEMENT:-hold}

x=build/demo
rm -rf "$x"
mkdir -p "$x"
args=${MIGBENCH_ARGS:-}
read -ra margs <<<"$args"
read -ra engs <<<"$engines"
step "VM 2node, vanilla $release_van: migbench $args"
# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
# Each guest command writes its own CSV from scratch: vm-run may run it
# again after a crash, and no row of the crashed attempt must be left.
run_guarded scripts/vm-run --kernel "$kvan" --topology 2node --xdir "$x" --timeout 3600 -- \
	env MIGBENCH_PLACEMENT="$placement" \
	sh -c 'rm -f "$0" && exec bench/placed.sh tools/migbench/migbench --label vanilla --csv "$0" "$@"' \
	"$x/vanilla.csv" --tables limit,a,b,w "${margs[@]}"
step "VM 2node, $release: migbench per engine ($engines) $args"
run_guarded scripts/vm-run --kernel "$kdir" --topology 2node --xdir "$x" --timeout 3600 -- \
	env MIGBENCH_ARGS="$args" MIGBENCH_PLACEMENT="$placement" bench/engines.sh "$x/engines.csv" "${engs[@]}"
step "VM 2node, $release: DMA offload, dcbm over swdma $args"
run_guarded scripts/vm-run --kernel "$kdir" --topology 2node --xdir "$x" --timeout 3600 -- \
	env MIGBENCH_ARGS="$args" MIGBENCH_PLACEMENT="$placement" SWDMA_LATENCY_NS="${SWDMA_LATENCY_NS:-10000}" \
		SWDMA_BANDWIDTH_MBPS="${SWDMA_BANDWIDTH_MBPS:-400}" \
		bench/dma.sh "$x/dma.csv" > >(tee "$x/bench-dma.out")
wait $! || true # tee
step "VM 4node-tiered, $release: hot-set residency (bench/tiering.sh, ${TIERBENCH_RUNS:-3} runs)"
rm -rf "$x/tiering"
run_guarded scripts/vm-run --kernel "$kdir" --topology 4node-tiered --xdir "$x" --timeout 5400 -- \
	env TIERBENCH_RUNS="${TIERBENCH_RUNS:-3}" TIERBENCH_ARGS="${TIERBENCH_ARGS:-}" \
		bench/tiering.sh "$x/tiering"
step "VM 2node, $release: KSM batch sizes (bench/ksm.sh, ${KSMBENCH_RUNS:-3} runs)"
rm -rf "$x/ksm"
run_guarded scripts/vm-run --kernel "$kdir" --topology 2node --xdir "$x" --timeout 3600 -- \
	env KSMBENCH_RUNS="${KSMBENCH_RUNS:-3}" KSMBENCH_ARGS="${KSMBENCH_ARGS:-}" \
		bench/ksm.sh "$x/ksm"
# One CSV: the header once, then the rows of the three runs
{
	tools/migbench/migbench --csv-header
	for f in vanilla engines dma; do tail -n +2 "$x/$f.csv"; done
} >"$x/migbench.csv"
out=$(new_results_dir)
topo="2node: 2 vCPUs, nodes 0 and 1 with one CPU and 2.5 GiB each, QEMU TCG"
python3 scripts/results.py "$x/migbench.csv" --md "$out/migbench.md" --png "$out/migbench.png" \
	--title "migbench: vanilla $release_van vs $release ($engines), $topo" \
	--meta "command=make demo (migbench ${args:-defaults}; engines: $engines)" \
	--meta "kernels=vanilla: $PACKAGE $VERSION, bench config; patched: + $npatch patches, same config + memaccel.config" \
	--meta "engines=cpu: the kernel's own per-folio copy (batch path off); mtcopy-NT: mtcopy with threads=N, its other parameters at their defaults (split_folios=Y: 64 KB chunks, thread_min_kb=64); mtcopy-NT-whole: the same with split_folios=N; dcbm-Nch: dcbm on N swdma channels, threshold 0 (all by DMA); dcbm-N-staging: dcbm with staging=Y on N swdma channels at swdma's defaults (no modelled latency), exchange table only; reasons=all, batch_max=512 pages except in the first-folio table and (w), where it is 16384" \
	--meta "swdma=8 channels modelled PTDMA-like: ${SWDMA_LATENCY_NS:-10000} ns per descriptor, ${SWDMA_BANDWIDTH_MBPS:-400} MB/s per channel (docs/benchmarks.md says why); its threads copy on the guest's 2 vCPUs" \
	--meta "placement=$placement: $([ "$placement" = any ] && echo "frames as the allocator gives them" || echo "migbench --hold-placement held the 2 MB blocks that alias in QEMU TCG's TLB (docs/benchmarks.md); column tlb_alias_folios counts the folios moved between aliasing frames")" \
	--meta "topology=$topo" \
	--meta "host=$(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
	--meta "date=$(date -u +%Y-%m-%d)"
cp "$x/migbench.csv" "$x/bench-dma.out" "$out/"
topo4="4node-tiered: 2 vCPUs, nodes 0-1 (2 GiB, one CPU each) in the top memory tier, memory-only nodes 2-3 (1 GiB) in the lower one (QEMU ACPI HMAT), QEMU TCG"
python3 bench/tiering-report.py "$x/tiering" --png "$out/tiering.png" \
	--title "Hot-set residency on node 0, $release, TCG (mechanics only)" \
	--meta "command=make demo (bench/tiering.sh, TIERBENCH_RUNS=${TIERBENCH_RUNS:-3} TIERBENCH_ARGS=${TIERBENCH_ARGS:-default})" \
	--meta "kernel=$release ($npatch patches, bench config + memaccel.config)" \
	--meta "topology=$topo4" \
	--meta "settings=$(head -1 "$x/tiering/settings.txt" 2>/dev/null)" \
	>"$out/tiering.md"
cp -r "$x/tiering" "$out/tiering-runs"
python3 bench/ksm-report.py "$x/ksm" >"$out/ksm.md" || echo "demo: no KSM results" >"$out/ksm.md"
cp -r "$x/ksm" "$out/ksm-runs"
stage_times
step results
cat "$out/migbench.md"
echo
cat "$out/tiering.md"
echo
cat "$out/ksm.md"
echo
echo "results: ${out#"$top"/}/ (migbench.md, migbench.csv, migbench.png, bench-dma.out, tiering.md, tiering.png, tiering-runs/, ksm.md, ksm-runs/); results/latest points there"
echo "compare two runs: scripts/results.py compare results/RUN1 results/RUN2"
