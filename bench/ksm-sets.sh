#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of the KSM benchmark table in docs/benchmarks.md: bench/ksm.sh
# on several workloads of tools/ksmbench, one after the other, each into
# OUTDIR/SET (runs.txt, env.txt; bench/ksm-report.py OUTDIR/SET prints its
# table):
#   bench/ksm-sets.sh OUTDIR [SET...]
# Sets (256 MiB of one process unless said; half the pages copies of 256
# templates, 64 empty pages, the rest unique):
#   mixed   that workload
#   prefix  every page starts with the same 2048 bytes: each compare reads
#           at least half a page
#   procs   the 256 MiB spread over 64 processes: batches end at each mm
#   thp     mapped with MADV_HUGEPAGE: ksmd splits the THPs it merges
# Default: mixed prefix procs. Batch sizes: KSMBENCH_SIZES [1 16 64 256
# 1024]; KSMBENCH_RUNS as bench/ksm.sh. Exits as bench/ksm.sh, with the
# worst status of the sets.
set -uo pipefail
out=$1
shift
TOP=$(cd "$(dirname "$0")/.." && pwd)
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(mixed prefix procs)
read -ra sizes <<<"${KSMBENCH_SIZES:-1 16 64 256 1024}"
base="--size 256 --dup 0.5 --templates 256 --zero 64"
rc=0
for s in "${sets[@]}"; do
	case $s in
	mixed) args=$base ;;
	prefix) args="$base --prefix 2048" ;;
	procs) args="$base --procs 64" ;;
	thp) args="$base --thp" ;;
	*) echo "ksm-sets: unknown set $s" >&2; exit 4 ;;
	esac
	echo "ksm-sets: $s: $args" >&2
	KSMBENCH_ARGS=$args "$TOP/bench/ksm.sh" "$out/$s" "${sizes[@]}"
	st=$?
	[ $st -gt $rc ] && rc=$st
done
exit $rc
