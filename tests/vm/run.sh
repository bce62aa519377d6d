#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest-side runner: run.sh OUTDIR TEST...
# Runs each tests/vm/TEST.sh (or TEST as a command) with a per-test timeout,
# writes its KTAP to OUTDIR/TEST.tap and echoes progress lines. The dmesg
# check always runs last so that it sees what every test did.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$1
shift
mkdir -p "$out"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
# 1 GiB of swap on zram (the selftests swap pages out with MADV_PAGEOUT).
if [ -e /sys/block/zram0 ] && ! grep -q zram0 /proc/swaps; then
	echo 1G >/sys/block/zram0/disksize && mkswap /dev/zram0 >/dev/null &&
		swapon /dev/zram0 || echo "vm-tests: warning: no zram swap"
fi
for t in "$@"; do
	start=$(date +%s)
	echo "vm-tests: $t ..."
	timeout -k 10 "${MEMACCEL_TEST_TIMEOUT:-1200}" bash "$here/$t.sh" >"$out/$t.tap" 2>&1
	rc=$?
	[ $rc = 124 ] && echo "not ok 999 $t timed out after ${MEMACCEL_TEST_TIMEOUT:-1200}s" >>"$out/$t.tap"
	echo "vm-tests: $t exit $rc in $(( $(date +%s) - start ))s"
done
bash "$here/dmesg.sh" >"$out/dmesg.tap" 2>&1
echo "vm-tests: done"
exit 0
