# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the issue-12 guest scripts.
# tlbskew_load KO: load bench/tlbskew and mount debugfs.
# tlbskew_sweep LABEL: the sweep on each vCPU, lines prefixed by LABEL.
tlbskew_load() {
	insmod "$1"
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
}
tlbskew_sweep() {
	local c
	for c in 0 1; do
		echo $c >/sys/kernel/debug/tlbskew/sweep
		sed "s/^/$1 /" /sys/kernel/debug/tlbskew/sweep
	done
}
