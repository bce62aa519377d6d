# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Migration copy offload helpers for the in-guest tests and benchmarks:
# sysfs paths, engine selection, named counters, fault injection, tracing,
# migcheck runs, bad input and the background storm. Sourced after
# ktap.sh by the tests; the benchmarks source it alone.
# shellcheck disable=SC2034 # the paths are used by the sourcing scripts
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
MO=/sys/kernel/mm/migrate_offload
# shellcheck disable=SC2034
MO_ENGINES=$MO/engines
# fault-inject.h capabilities of the series (CONFIG_FAIL_MIGRATE_OFFLOAD)
# shellcheck disable=SC2034
FAIL_FOLIO=/sys/kernel/debug/fail_migrate_offload_folio
# shellcheck disable=SC2034
FAIL_BATCH=/sys/kernel/debug/fail_migrate_offload_batch
MTCOPY=/sys/module/mtcopy/parameters
MIGCHECK=${MIGCHECK:-$TOP/tools/migcheck/migcheck}
DCBM=/sys/module/dcbm/parameters
SWDMA=/sys/module/swdma/parameters
SWDBG=/sys/kernel/debug/swdma
THP=/sys/kernel/mm/transparent_hugepage

# mo_select SPEC: SPEC is "cpu", "mtcopy-N" (mtcopy with N threads and
# its default split_folios, Y: threads cut folios into 64 KB chunks),
# "mtcopy-Ns" (the same, split_folios=Y said explicitly), "mtcopy-Nw" (N
# threads that share whole folios, split_folios=N), "dcbm-N" (dcbm holding N channels of swdma, which is
# loaded with 8 channels if it is not loaded yet; every folio size goes by
# DMA) or "dcbm-Ns" (the same, with staging: exchanged pairs are swapped
# by DMA through a staging buffer per channel).
mo_select() {
	case "$1" in
	cpu) echo cpu >$MO/engine ;;
	mtcopy-*)
		local threads=${1#mtcopy-} split=Y
		case $threads in
		*s) threads=${threads%s} ;;
		*w) threads=${threads%w} split=N ;;
		esac
		modprobe mtcopy || return 1
		echo "$threads" >$MTCOPY/threads || return 1
		if [ -e $MTCOPY/split_folios ]; then
			echo $split >$MTCOPY/split_folios || return 1
		elif [ "$threads" != "${1#mtcopy-}" ]; then
			echo "mo_select: this mtcopy has no split_folios" >&2
			return 1
		fi
		echo mtcopy >$MO/engine
		;;
	dcbm-*)
		local chans=${1#dcbm-} staging=N
		case $chans in *s) chans=${chans%s} staging=Y ;; esac
		[ -d $SWDMA ] || modprobe swdma channels=8 || return 1
		modprobe dcbm || return 1
		if [ -e $DCBM/staging ]; then
			echo $staging >$DCBM/staging || return 1
		elif [ $staging = Y ]; then
			echo "mo_select: this dcbm has no staging" >&2
			return 1
		fi
		echo "$chans" >$DCBM/channels || return 1
		echo 0 >$DCBM/threshold_kb || return 1
		echo dcbm >$MO/engine || return 1
		echo 1 >$MO/batch_min
		;;
	*) echo "unknown engine spec $1" >&2; return 1 ;;
	esac
}

# Counters by name:
#   mo:NAME       core statistics, $MO/stats/NAME
#   ENGINE:NAME   an engine's counter, $MO_ENGINES/ENGINE/NAME
#   swdma:NAME    swdma's debugfs counter
#   vmstat:NAME   /proc/vmstat
# ctr NAME prints one; snap NAME... remembers them; since NAME prints the
# increase since its snap.
vmstat() { awk -v n="$1" '$1 == n {print $2}' /proc/vmstat; }
# ctr_get NAME: the counter's value in CTR, read by the shell itself: a
# process per counter read costs about 0.2 s under TCG, and a test that
# snaps and checks a dozen counters per case spent seconds on it.
ctr_get() {
	local k v f
	CTR=
	case "$1" in
	mo:*) f=$MO/stats/${1#mo:} ;;
	vmstat:*)
		while read -r k v; do
			[ "$k" = "${1#vmstat:}" ] && { CTR=$v; return 0; }
		done </proc/vmstat
		return 1 ;;
	swdma:*) f=$SWDBG/${1#swdma:} ;;
	*:*) f=$MO_ENGINES/${1%%:*}/${1#*:} ;;
	*) echo "ctr: bad counter name $1" >&2; return 1 ;;
	esac
	read -r CTR <"$f"
}
ctr() { ctr_get "$1" && echo "$CTR"; }
declare -gA SNAP
snap() {
	local c
	for c in "$@"; do
		ctr_get "$c"
		SNAP[$c]=$CTR
	done
}
since() {
	[ -n "${SNAP[$1]:-}" ] || { echo "since: no snap of $1" >&2; return 1; }
	ctr_get "$1" || return 1
	echo $((CTR - SNAP[$1]))
}
# mo_stats: every core counter as NAME=VALUE, on one line.
mo_stats() {
	local f out=
	for f in "$MO"/stats/*; do out+="${f##*/}=$(cat "$f") "; done
	echo "${out% }"
}
# deltas NAME...: "NAME +N" for each, on one line, for diagnostics.
deltas() {
	local c out=
	for c in "$@"; do out+="$c +$(since "$c") "; done
	echo "${out% }"
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
		echo $v >"$TRACEFS/events/migrate/$ev/enable" || return 1
	done
	echo $v >$TRACEFS/tracing_on
}

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
# fault_nth DIR K: exactly the Kth call from now fails (size-1 calls).
fault_nth() {
	echo 0 >"$1/probability"
	echo 0 >"$1/verbose"
	echo 1 >"$1/interval"
	echo "$2" >"$1/space"
	echo 1 >"$1/times"
	echo 100 >"$1/probability"
}
fault_count() { echo $((FAULT_BUDGET - $(cat "$1/times"))); }

# run_check NAME MIGCHECK-ARGS...: one migcheck run is one result; its
# summary (or the tail of its output on failure) as diagnostics.
run_check() {
	local name=$1 out
	shift
	if out=$("$MIGCHECK" "$@" 2>&1); then
		ktap_ok "$name"
		printf '%s\n' "$out" | tail -2 | ktap_diag
	else
		ktap_fail "$name"
		printf '%s\n' "$out" | tail -5 | ktap_diag
	fi
}

# bad_input NAME FILE VALUE: writing VALUE to FILE must fail with EINVAL
# and leave FILE reading the same.
bad_input() {
	local name=$1 f=$2 v=$3 before after err rc
	before=$(cat "$f")
	err=$( (printf '%s' "$v" >"$f") 2>&1) && rc=0 || rc=$?
	after=$(cat "$f")
	if [ "$rc" != 0 ] && [[ "$err" == *"Invalid argument"* ]] && [ "$before" = "$after" ]; then
		ktap_ok "bad input: $name -> EINVAL, unchanged"
	else
		ktap_fail "bad input: $name -> EINVAL, unchanged"
		echo "rc=$rc err='$err' before='$before' after='$after'" | ktap_diag
	fi
}

# hog CPU: a busy loop pinned to CPU until the test exits (or hogs_stop).
HOGS=()
hog() {
	taskset -c "$1" sh -c 'while :; do :; done' &
	HOGS+=($!)
	at_exit kill $!
}
hogs_stop() {
	[ ${#HOGS[@]} = 0 ] && return
	kill "${HOGS[@]}" 2>/dev/null
	wait "${HOGS[@]}" 2>/dev/null
	HOGS=()
}

# storm_start NAME: migcheck runs back to back in the background (mixed
# folio sizes, 2 writers and a reader in the moved process) until
# storm_stop, every second run exchanging pairs of folios across the nodes
# (--exchange) instead of moving them, where the kernel exchanges; the
# output of every failed run goes to /tmp/NAME.fail. STORM_RUNS and
# STORM_XRUNS count the runs and the exchange runs, STORM_XPAGES the pages
# exchanged meanwhile (vmstat pgexchange_success; 0 without exchange).
storm_start() {
	STORM_NAME=$1
	rm -f "/tmp/$1.stop" "/tmp/$1.fail" "/tmp/$1.runs"
	[ -d /sys/kernel/mm/exchange ] && snap vmstat:pgexchange_success
	(
		n=0 x=0 mode=()
		while [ ! -e "/tmp/$1.stop" ]; do
			out=$("$MIGCHECK" --mixed --total 12M --moves 4 --writers 2 --readers 1 "${mode[@]}" 2>&1) ||
				echo "$out" >>"/tmp/$1.fail"
			n=$((n + 1))
			[ ${#mode[@]} = 0 ] || x=$((x + 1))
			if [ ${#mode[@]} = 0 ] && [ -d /sys/kernel/mm/exchange ]; then
				mode=(--exchange)
			else
				mode=()
			fi
		done
		echo "$n $x" >"/tmp/$1.runs"
	) &
	STORM_PID=$!
	at_exit touch "/tmp/$1.stop"
}
# storm_stop: end the storm after its current run, set STORM_RUNS, and
# report whether every run found its data intact.
storm_stop() {
	touch "/tmp/$STORM_NAME.stop"
	wait "$STORM_PID"
	read -r STORM_RUNS STORM_XRUNS <"/tmp/$STORM_NAME.runs"
	STORM_XPAGES=0
	[ -d /sys/kernel/mm/exchange ] && STORM_XPAGES=$(since vmstat:pgexchange_success)
	ktap_check "storm: every migcheck run found its data intact" test ! -s "/tmp/$STORM_NAME.fail"
	[ -s "/tmp/$STORM_NAME.fail" ] && head -5 "/tmp/$STORM_NAME.fail" | ktap_diag
	return 0
}
# storm_exchanged: where the kernel exchanges, the storm did (runs with
# --exchange, and pages exchanged); always true on a kernel without it.
storm_exchanged() {
	[ ! -d /sys/kernel/mm/exchange ] ||
		{ [ "$STORM_XRUNS" -gt 0 ] && [ "$STORM_XPAGES" -gt 0 ]; }
}
