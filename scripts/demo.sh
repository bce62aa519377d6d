#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: set up, build the benchmark kernel and tools, boot the 2-node VM,
# run migbench, print the tables and write results/ (markdown, CSV, PNG).
# MIGBENCH_ARGS overrides migbench's defaults (e.g. "--reps 3 --total 32M").
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. kernel/BASE
t0=$(date +%s)
step() { echo "== $* ($(( $(date +%s) - t0 ))s)"; }

step setup
scripts/setup.sh
step kernel tree
[ -d build/linux/.git ] || scripts/kernel-tree.sh
step build: tools and benchmark kernel
make -s -C tools
scripts/build-kernel.sh bench
kdir=build/kbuild-bench
release=$(cat $kdir/include/config/kernel.release)
npatch=$(git -C build/linux rev-list --count memaccel-base..HEAD)
label=${LABEL:-$([ "$npatch" = 0 ] && echo vanilla || echo "memaccel+$npatch")}

x=build/demo
rm -rf "$x"
mkdir -p "$x" results
args=${MIGBENCH_ARGS:-}
step "VM 2node: migbench $args"
scripts/vm-run --kernel "$kdir" --topology 2node --xdir "$x" --timeout 3600 -- \
	tools/migbench/migbench --label "$label" --csv "$x/migbench.csv" $args
topo="2node: 2 vCPUs, nodes 0 and 1 with one CPU and 2.5 GiB each, QEMU TCG"
python3 scripts/results.py "$x/migbench.csv" --md results/migbench.md --png results/migbench.png \
	--title "migbench, $release, $topo" \
	--meta "command=make demo (tools/migbench/migbench --label $label ${args:-(defaults)})" \
	--meta "kernel=$release ($PACKAGE $VERSION + $npatch patches, bench config)" \
	--meta "topology=$topo" \
	--meta "host=$(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" \
	--meta "date=$(date -u +%Y-%m-%d)"
cp "$x/migbench.csv" results/migbench.csv
step results
cat results/migbench.md
echo
echo "results: results/migbench.md results/migbench.csv results/migbench.png"
