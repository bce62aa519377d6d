#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of the KSM benchmark (issue 15): runs tools/ksmbench at each
# batch size, interleaved (every size once, then again), and writes
# OUTDIR/runs.txt, ksmbench's line per run, and OUTDIR/env.txt (kernel,
# CPUs, nodes, the arguments):
#   bench/ksm.sh OUTDIR [BATCH_SIZE...]
# KSMBENCH_RUNS [3], KSMBENCH_ARGS [--size 64 --dup 0.5 --templates 256
# --zero 64], KSMBENCH_ENGINES [cpu] (batch engines, each run through
# every engine and batch size; mt and swaccel load their modules),
# KSMBENCH_ALGO [xxhash; crc32c if an engine is swaccel, which computes
# nothing else]. Batch sizes default to 1 16 64 256 1024. bench/ksm-report.py
# OUTDIR prints the table: medians with min-max, per batch size. Exits 0
# unless a run found a page with the wrong content (2) or could not set
# KSM up (4); a run that did not converge is a row of the table.
set -uo pipefail
out=$1
shift
TOP=$(cd "$(dirname "$0")/.." && pwd)
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1 16 64 256 1024)
runs=${KSMBENCH_RUNS:-3}
read -ra engines <<<"${KSMBENCH_ENGINES:-cpu}"
algo=${KSMBENCH_ALGO:-xxhash}
[[ " ${engines[*]} " == *" swaccel "* ]] && algo=${KSMBENCH_ALGO:-crc32c}
for e in "${engines[@]}"; do
	case $e in
	mt) modprobe ksm_mt || exit 4 ;;
	swaccel) modprobe ksm_swaccel || exit 4 ;;
	esac
done
read -ra kargs <<<"${KSMBENCH_ARGS:---size 64 --dup 0.5 --templates 256 --zero 64}"
mkdir -p "$out"
{
	echo "command: bench/ksm.sh $out ${sizes[*]}"
	echo "ksmbench args: ${kargs[*]}"
	echo "runs: $runs, interleaved; engines: ${engines[*]}; checksum_algo: $algo"
	[ -d /sys/module/ksm_mt ] && {
		P=/sys/module/ksm_mt/parameters
		echo "ksm_mt: threads $(cat $P/threads), thread_min_pages $(cat $P/thread_min_pages), thread_min_compares $(cat $P/thread_min_compares 2>/dev/null || echo -)"
	}
	[ -d /sys/module/ksm_swaccel ] && echo "ksm_swaccel: batch_max $(cat /sys/module/ksm_swaccel/parameters/batch_max), latency_us $(cat /sys/module/ksm_swaccel/parameters/latency_us)"
	echo "kernel: $(uname -r) $(cat /proc/version)"
	echo "cpus: $(nproc), nodes: $(find /sys/devices/system/node -maxdepth 1 -name "node[0-9]*" | wc -l)"
	echo "batch_size file: $([ -e /sys/kernel/mm/ksm/batch_size ] && echo yes || echo no)"
} >"$out/env.txt"
cat "$out/env.txt"
: >"$out/runs.txt"
rc=0
for ((r = 1; r <= runs; r++)); do
	for e in "${engines[@]}"; do
		for b in "${sizes[@]}"; do
			echo "ksm bench: run $r engine $e batch $b" >&2
			line=$("$TOP/tools/ksmbench/ksmbench" "${kargs[@]}" --batch "$b" \
				--seed "$r" --engine "$e" --algo "$algo")
			st=$?
			echo "$line run=$r exit=$st" | tee -a "$out/runs.txt"
			# Not converged (1) shows in the table; a page that lost
			# its content (2) or a run that could not start (4)
			# fails the run
			case $st in 0 | 1) ;; *) rc=$st ;; esac
		done
	done
done
exit $rc
