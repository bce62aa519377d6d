#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Multi-threaded TCG (QEMU's default, one host thread per vCPU) against
# single-threaded TCG (-accel tcg,thread=single: every vCPU on one host
# thread, so no vCPU ever runs code another vCPU is patching) for the
# 2node-4cpu guest of make test. Not a test: it prints what it measured.
#
#   scripts/tcg-compare.sh [BOOTS] [CATEGORIES]
#
# 1. BOOTS boots per mode (default 10), interleaved, each running the
#    topology test only, with MEMACCEL_VM_BOOT_RETRIES=0: how often a boot
#    crashes (the stale-int3 race) and how long a boot takes.
# 2. One run per mode of the mm selftest CATEGORIES (default "ksm cow")
#    under the kernel's own copy: what single-threaded TCG costs in test time.
# Kernel: MEMACCEL_KERNEL (default build/kbuild-test). Output: build/tcg-compare/.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# shellcheck source=env.sh
. "$top/scripts/env.sh"
boots=${1:-10}
read -r -a cats <<<"${2:-ksm cow}"
kernel=${MEMACCEL_KERNEL:-$top/build/kbuild-test}
out=$top/build/tcg-compare
rm -rf "$out"
mkdir -p "$out"
declare -A opts=([mttcg]="" [single]="-accel tcg,thread=single")

# run MODE NAME TEST...: one guest; prints "rc seconds crashed"
run() {
	local mode=$1 x=$out/$1-$2
	shift 2
	mkdir -p "$x"
	local t0=$SECONDS
	MEMACCEL_VM_BOOT_RETRIES=0 MEMACCEL_VM_QEMU_OPTS="${opts[$mode]}" \
		run_guarded scripts/vm-run --topology 2node-4cpu --kernel "$kernel" --xdir "$x" \
		--rwdir build/kselftest --timeout 1800 -- \
		env MEMACCEL_TOPOLOGY=2node-4cpu tests/vm/run.sh "$x/ktap" "$@" \
		>"$x/out.log" 2>&1
	local rc=$? crashed=0
	grep -aq "Oops: int3" "$x/console.log" 2>/dev/null && crashed=1
	echo "$rc $((SECONDS - t0)) $crashed"
}

echo "tcg-compare: kernel $(cat "$kernel/include/config/kernel.release" 2>/dev/null)," \
	"2node-4cpu, $(nproc) host CPUs, $boots boots per mode"
declare -A n_crash=([mttcg]=0 [single]=0) times=([mttcg]="" [single]="")
for i in $(seq 1 "$boots"); do
	for mode in mttcg single; do
		read -r rc secs crashed < <(run "$mode" "boot$i" topology)
		echo "boot $i $mode: exit $rc, ${secs}s, int3 oops $crashed"
		[ "$rc" = 0 ] || n_crash[$mode]=$((n_crash[$mode] + 1))
		times[$mode]+="$secs "
	done
done
for mode in mttcg single; do
	# shellcheck disable=SC2086
	echo "$mode: ${n_crash[$mode]} of $boots boots failed; boot+topology seconds:" \
		"median $(printf '%s\n' ${times[$mode]} | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')," \
		"range $(printf '%s\n' ${times[$mode]} | sort -n | sed -n '1p;$p' | paste -sd-)"
done
mm=()
for c in "${cats[@]}"; do mm+=("mm:$c"); done
for mode in mttcg single; do
	read -r rc secs crashed < <(run "$mode" selftests "${mm[@]}")
	echo "$mode: ${mm[*]}: exit $rc in ${secs}s (int3 oops $crashed); per category:"
	grep -a "vm-tests:.*exit" "$out/$mode-selftests/out.log" | sed 's/^/  /'
	compgen -G "$out/$mode-selftests/ktap/*.tap" >/dev/null &&
		python3 scripts/ktap.py "$out/$mode-selftests/ktap/"*.tap | tail -1 | sed 's/^/  /'
done
