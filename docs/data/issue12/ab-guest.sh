#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A/B of engines at 4K/64K/2M, tables a and b, interleaved by repetition,
# with a tlbskew sweep of both vCPUs before and after.
#   guest.sh REPO TLBSKEW_KO OUTDIR SPEC...
set -u
repo=$1 ko=$2 out=$3
shift 3
mkdir -p "$out"
. "$(dirname "$0")/tlbskew-lib.sh"
tlbskew_load "$ko"
tlbskew_sweep before >>"$out/sweep.txt"
cd "$repo" || exit 1
MIGBENCH_ARGS="--tables a,b --sizes 4K,64K,2M --counts 1,4,16 --reps 5" \
	bench/engines.sh "$out/ab.csv" "$@"
echo "engines.sh exit $?"
tlbskew_sweep after >>"$out/sweep.txt"
