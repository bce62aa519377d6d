#!/bin/bash
# vanilla boot: is the 2 MB slow state a TCG TLB-conflict state? probe
# aligned vs skewed copies on each CPU around migbench runs
set -u
ko=$1 out=$2
mb=$(dirname "$0")/../tools/migbench/migbench
insmod "$ko"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
probe() { for c in 0 1; do echo $c >/sys/kernel/debug/tlbskew/run; echo "$1 $(cat /sys/kernel/debug/tlbskew/run)"; done | tee -a "$out"; }
probe boot
for r in 1 2 3; do
	"$mb" --tables b --counts 1,4 --reps 3 --label "van r$r" 2>&1 | grep -E "^b " | tee -a "$out"
	probe "r$r after-2M"
	"$mb" --tables a --sizes 64K --reps 1 --label "van r$r 64K" 2>&1 | grep -E "^a " | tee -a "$out"
	probe "r$r after-64K"
done
