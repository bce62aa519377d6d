# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# KTAP helpers for in-guest tests. Source this, call ktap_plan N, then
# ktap_ok/ktap_fail/ktap_skip per result, and ktap_exit at the end.
KTAP_N=0
KTAP_FAILED=0
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

ktap_plan() { echo "KTAP version 1"; echo "1..$1"; }
ktap_ok() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N $*"; }
ktap_fail() { KTAP_N=$((KTAP_N + 1)); KTAP_FAILED=1; echo "not ok $KTAP_N $*"; }
ktap_skip() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N $1 # SKIP $2"; }
ktap_diag() { sed 's/^/# /'; }
# ktap_check NAME CMD...: ok if CMD succeeds; its output as diagnostics.
ktap_check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ktap_ok "$name"
	else
		ktap_fail "$name"
		printf '%s\n' "$out" | tail -20 | ktap_diag
	fi
}
# ktap_expect_rc NAME RC CMD...: ok if CMD exits with exactly RC.
ktap_expect_rc() {
	local name=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" = "$want" ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name"
		echo "exit code $rc, expected $want" | ktap_diag
		printf '%s\n' "$out" | tail -20 | ktap_diag
	fi
}
ktap_exit() { exit $KTAP_FAILED; }

# Migration copy offload helpers.
MO=/sys/kernel/mm/migrate_offload
# shellcheck disable=SC2034 # used by the tests that source this file
MO_ENGINES=/sys/kernel/mm/migrate_offload/engines
# fault-inject.h capabilities of the series (CONFIG_FAIL_MIGRATE_OFFLOAD)
# shellcheck disable=SC2034
FAIL_FOLIO=/sys/kernel/debug/fail_migrate_offload_folio
# shellcheck disable=SC2034
FAIL_BATCH=/sys/kernel/debug/fail_migrate_offload_batch
MTCOPY=/sys/module/mtcopy/parameters
MIGCHECK=${MIGCHECK:-$TOP/tools/migcheck/migcheck}
DCBM=/sys/module/dcbm/parameters
SWDMA=/sys/module/swdma/parameters
# mo_select SPEC: SPEC is "cpu", "mtcopy-N" (mtcopy with N threads) or
# "dcbm-N" (dcbm holding N channels of swdma, which is loaded with 8
# channels if it is not loaded yet; every folio size goes by DMA).
mo_select() {
	case "$1" in
	cpu) echo cpu >$MO/engine ;;
	mtcopy-*)
		modprobe mtcopy || return 1
		echo "${1#mtcopy-}" >$MTCOPY/threads || return 1
		echo mtcopy >$MO/engine
		;;
	dcbm-*)
		[ -d $SWDMA ] || modprobe swdma channels=8 || return 1
		modprobe dcbm || return 1
		echo "${1#dcbm-}" >$DCBM/channels || return 1
		echo 0 >$DCBM/threshold_kb || return 1
		echo dcbm >$MO/engine || return 1
		echo 1 >$MO/batch_min
		;;
	*) echo "unknown engine spec $1" >&2; return 1 ;;
	esac
}
# tracefs, mounted on first use. trace_events on|off EVENT...: enable or
# disable events of the migrate system (on also empties the buffer).
TRACEFS=/sys/kernel/tracing
trace_events() {
	local v=0 ev
	[ "$1" = on ] && v=1
	shift
	[ -e $TRACEFS/trace ] || mount -t tracefs nodev $TRACEFS || return 1
	if [ $v = 1 ]; then
		echo 0 >$TRACEFS/tracing_on
		: >$TRACEFS/trace
	fi
	for ev in "$@"; do
		echo $v >$TRACEFS/events/migrate/"$ev"/enable || return 1
	done
	echo $v >$TRACEFS/tracing_on
}
# vmstat NAME: one counter of /proc/vmstat.
vmstat() { awk -v n="$1" '$1 == n {print $2}' /proc/vmstat; }
# mo_stat NAME: one counter of $MO/stats.
mo_stat() { cat "$MO/stats/$1"; }
# mo_snap: all counters on one line, "batches folios bytes fallbacks errors".
# fault_arm DIR N: the fault-injection capability in DIR fails every Nth
# call it sees (N=0: none), quietly; fault_count DIR tells how many it has
# failed since, from the decrease of its "times" budget.
FAULT_BUDGET=1000000
fault_arm() {
	echo 0 >"$1/probability"
	echo 0 >"$1/verbose"
	echo 0 >"$1/space"
	echo "$FAULT_BUDGET" >"$1/times"
	[ "$2" = 0 ] && return
	echo "$2" >"$1/interval"
	echo 100 >"$1/probability"
}
fault_off() { echo 0 >"$1/probability"; }
fault_count() { echo $((FAULT_BUDGET - $(cat "$1/times"))); }

mo_snap() { echo "$(mo_stat batches) $(mo_stat folios) $(mo_stat bytes) $(mo_stat fallbacks) $(mo_stat errors)"; }

# storm_start NAME: migcheck runs back to back in the background (mixed
# folio sizes, 2 writers and a reader in the moved process) until
# storm_stop; the output of every failed run goes to /tmp/NAME.fail.
storm_start() {
	STORM_NAME=$1
	rm -f "/tmp/$1.stop" "/tmp/$1.fail" "/tmp/$1.runs"
	(
		n=0
		while [ ! -e "/tmp/$1.stop" ]; do
			out=$("$MIGCHECK" --mixed --total 12M --moves 4 --writers 2 --readers 1 2>&1) ||
				echo "$out" >>"/tmp/$1.fail"
			n=$((n + 1))
		done
		echo $n >"/tmp/$1.runs"
	) &
	STORM_PID=$!
}
# storm_stop: end the storm after its current run, set STORM_RUNS, and
# report whether every run found its data intact.
storm_stop() {
	touch "/tmp/$STORM_NAME.stop"
	wait "$STORM_PID"
	# shellcheck disable=SC2034 # read by the caller
	STORM_RUNS=$(cat "/tmp/$STORM_NAME.runs")
	ktap_check "storm: every migcheck run found its data intact" test ! -s "/tmp/$STORM_NAME.fail"
	[ -s "/tmp/$STORM_NAME.fail" ] && head -5 "/tmp/$STORM_NAME.fail" | ktap_diag
	return 0
}
