#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest-side runner: run.sh OUTDIR TEST...
# Runs each tests/vm/TEST.sh (mm:CAT: one mm selftest category) with a
# per-test timeout (MEMACCEL_TEST_TIMEOUT, default 1200 s),
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
	# "mm:CAT" runs one category of the upstream mm selftests.
	name=${t/:/-}
	# A test may add results of its own in $out/$name-*.tap
	export MEMACCEL_KTAP_OUT=$out MEMACCEL_TEST_NAME=$name
	case "$t" in
	# "mm:CAT@ENGINE" runs it with a migration copy engine selected;
	# "+tiering" after it with the tiering paths busy beside it, and
	# "+ksmbatch-N" with KSM's batch_size at N, "+ksmengine-NAME" with
	# KSM's batch_engine NAME.
	mm:*@*)
		spec=${t#mm:} tiering=0 ksmbatch='' ksmengine=''
		if [[ "$spec" =~ \+ksmbatch-([0-9]+) ]]; then
			ksmbatch=${BASH_REMATCH[1]}
			spec=${spec/+ksmbatch-$ksmbatch/}
		fi
		if [[ "$spec" =~ \+ksmengine-([a-z0-9_]+) ]]; then
			ksmengine=${BASH_REMATCH[1]}
			spec=${spec/+ksmengine-$ksmengine/}
		fi
		[[ "$spec" == *+tiering ]] && spec=${spec%+tiering} tiering=1
		cmd=(env MEMACCEL_MM_CATEGORIES="${spec%@*}" MEMACCEL_ENGINE="${spec#*@}" \
			MEMACCEL_MM_TIERING="$tiering" MEMACCEL_KSM_BATCH="$ksmbatch" \
			MEMACCEL_KSM_ENGINE="$ksmengine" \
			bash "$here/mm-selftests.sh") ;;
	mm:*) cmd=(env MEMACCEL_MM_CATEGORIES="${t#mm:}" bash "$here/mm-selftests.sh") ;;
	*) cmd=(bash "$here/$t.sh") ;;
	esac
	start=$(date +%s)
	echo "vm-tests: $name ..."
	timeout -k 10 "${MEMACCEL_TEST_TIMEOUT:-1200}" "${cmd[@]}" >"$out/$name.tap" 2>&1
	rc=$?
	if [ $rc = 124 ]; then
		# what it printed as it went, if it keeps that (mm-selftests.sh)
		[ -s "$out/$name.raw.log" ] &&
			tail -n 60 "$out/$name.raw.log" | sed 's/^/# raw: /' >>"$out/$name.tap"
		echo "not ok 999 $name timed out after ${MEMACCEL_TEST_TIMEOUT:-1200}s" >>"$out/$name.tap"
	fi
	echo "vm-tests: $name exit $rc in $(( $(date +%s) - start ))s"
done
bash "$here/dmesg.sh" >"$out/dmesg.tap" 2>&1
echo "vm-tests: done"
exit 0
