#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue 12: does the 2 MB slow state follow the source-destination page
# distance, as a direct-mapped software TLB would? The tlbskew sweep copies
# 1 MB between 2 MB blocks whose page numbers differ by an odd multiple of
# 2^k pages (k = 9..13; 2^14+ = any multiple of 16384), aligned and skewed
# by one page, on each vCPU, at boot and around 2 MB and 64K migbench runs.
#   vprobe3.sh TLBSKEW_KO OUT
set -u
ko=$1 out=$2
mb=$(dirname "$0")/../../../tools/migbench/migbench
. "$(dirname "$0")/tlbskew-lib.sh"
tlbskew_load "$ko"
sweep() { tlbskew_sweep "$1" | tee -a "$out"; }
sweep boot
for r in 1 2 3; do
	"$mb" --tables b --counts 1,4 --reps 3 --label "r$r" 2>&1 | grep -E "^b " | tee -a "$out"
	sweep "r$r after-2M"
	"$mb" --tables a --sizes 64K --reps 1 --label "r$r 64K" 2>&1 | grep -E "^a " | tee -a "$out"
	sweep "r$r after-64K"
done
