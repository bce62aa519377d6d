#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of the residency benchmark (issue 14), on 4node-tiered: runs
# tools/tierbench under each tiering configuration, interleaved (every
# configuration once, then again), and writes into OUTDIR one CSV per run
# (tierbench's rows and summary) and runs.tsv, a row per run with the
# kernel's counters over the run:
#   bench/tiering.sh OUTDIR [CONFIG...]
# Configurations:
#   none        no tiering: NUMA balancing off, no DAMON (demotion on, as
#               in every configuration)
#   nb2         6.12: numa_balancing=2, demotion on
#   nb2-batch-E the same with promote_batch=1 and promote_exchange=1,
#               under engine E (cpu, mtcopy-2, dcbm-2: see mo_select)
#   damon       DAMON via damo: migrate_hot of node 2 to node 0 and
#               migrate_cold of node 0 to node 2, demotion on
#   damon-xo    DAMON migrate_hot with exchange_on_full=1 (skipped when
#               the kernel has no such file)
#   policy      the exchange tiering policy (tiering/policy=1, its
#               defaults), NUMA balancing off, demotion on (skipped when
#               the kernel has no such file)
#   policy-scanN  the same with policy_scan_pages=N (not in the default
#               list)
# Node 0 is made full (tests/vm/lib/tiers.sh fill0) with the workload's
# cold pages there: a promotion needs room made by demotion or an
# exchange. tierbench runs on CPU 0 beside tlb_churn (tests/vm/lib/tiers.sh),
# a process that wakes 50 times a second there: without it QEMU's TLB keeps
# the hot set's accessed bits from being set again once cleared, and DAMON
# and the policy, which read them, see it as idle. TIERBENCH_RUNS [3],
# TIERBENCH_ARGS [--total 256M --hot 32M --fast-init 64M --period 30
# --shifts 3].
# OUTDIR/CONFIG-RUN.threads has each of those threads' CPU time in clock
# ticks at the start and the end of the run.
# Each run also leaves OUTDIR/CONFIG-RUN.trace: the kernel's tiering
# events (mm_tier_policy at the end of each policy interval,
# mm_promote_drain at each drain) in a tracefs instance of its own, with
# tierbench's samples as markers, so that bench/tiering-report.py can
# count the policy intervals between a shift and 90 %.
set -uo pipefail
out=$1
shift
TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$TOP/tests/vm/lib/engines.sh"
. "$TOP/tests/vm/lib/damo.sh"
# shellcheck source=/dev/null
. "$TOP/tests/vm/lib/tiers.sh"
T=$MO/tiering
SCHEMES=/sys/kernel/mm/damon/admin/kdamonds
configs=("$@")
[ ${#configs[@]} -gt 0 ] ||
	configs=(none nb2 nb2-batch-cpu nb2-batch-mtcopy-2 nb2-batch-dcbm-2 damon damon-xo policy)
runs=${TIERBENCH_RUNS:-3}
read -ra targs <<<"${TIERBENCH_ARGS:---total 256M --hot 32M --fast-init 64M --period 30 --shifts 3}"
fast_mib=64
for ((i = 0; i < ${#targs[@]}; i++)); do
	[ "${targs[i]}" = --fast-init ] && fast_mib=$(($(numfmt --from=iec "${targs[i + 1]}") >> 20))
done
mkdir -p "$out"
counters=(pgpromote_success pgpromote_candidate pgdemote_kswapd pgdemote_direct
	pgexchange_success pgmigrate_success numa_hint_faults)

# The CPU time, in clock ticks, of the kernel threads that move pages:
# "KPROMOTED KDAMOND KSWAPD KCOMPACTD"; each thread's "LABEL PID COMM
# TICKS" appended to FILE
kthread_ticks() {
	local p s n i t=(0 0 0 0)
	for p in $(pgrep '^(kpromoted|kdamond|kswapd|kcompactd)'); do
		s=$(cut -d' ' -f14,15 /proc/"$p"/stat 2>/dev/null) || continue
		n=$(cat /proc/"$p"/comm 2>/dev/null) || continue
		echo "$2 $p $n $((${s% *} + ${s#* }))" >>"$1"
		case $n in
		kpromoted*) i=0 ;;
		kdamond*) i=1 ;;
		kswapd*) i=2 ;;
		*) i=3 ;;
		esac
		t[i]=$((t[i] + ${s% *} + ${s#* }))
	done
	echo "${t[*]}"
}
# secs TICKS: clock ticks as seconds, two decimals
secs() { awk -v t="$1" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", t / hz}'; }

damon_on() {
	case $1 in
	damon)
		# Two kdamonds, one per node: damo needs every marker then
		damo start \
			--kdamond --damon_ctx --ops paddr --monitoring_nr_regions_range 100 1000 \
			--damon_target --numa_node 2 \
			--damos_action migrate_hot 0 --damos_access_rate 5% max --damos_age 0 max \
			--kdamond --damon_ctx --ops paddr --monitoring_nr_regions_range 100 1000 \
			--damon_target --numa_node 0 \
			--damos_action migrate_cold 2 --damos_access_rate 0% 0% --damos_age 5s max \
			>/dev/null 2>/tmp/tierbench-damo.err ||
			{ cat /tmp/tierbench-damo.err >&2; return 1; } ;;
	damon-xo)
		damo start --ops paddr --numa_node 2 --monitoring_nr_regions_range 100 1000 \
			--damos_action migrate_hot 0 --damos_access_rate 5% max --damos_age 0 max \
			>/dev/null &&
			echo 1 >$SCHEMES/0/contexts/0/schemes/0/exchange_on_full &&
			echo commit >$SCHEMES/0/state ;;
	esac
}

setup() {
	echo 0 >/proc/sys/kernel/numa_balancing
	echo 1 >/sys/kernel/mm/numa/demotion_enabled
	echo 0 >$T/promote_batch
	echo 0 >$T/promote_exchange
	[ ! -e $T/policy ] || echo 0 >$T/policy
	mo_select cpu >/dev/null
	case $1 in
	# Demotion stays on in every configuration, none included: without
	# it kswapd finds nothing to reclaim on node 0 (no swap), fails
	# MAX_RECLAIM_RETRIES times, and 6.12 then no longer wakes it for
	# the node (a "hopeless node") until a reclaim succeeds, so every
	# configuration after "none" ran with no demotion at all (the first
	# boot of 2026-11-27: pgdemote 0 in all 24 runs)
	none) ;;
	nb2) echo 2 >/proc/sys/kernel/numa_balancing ;;
	nb2-batch-*)
		mo_select "${1#nb2-batch-}" >/dev/null || return 1
		echo 1 >$T/promote_batch
		echo 1 >$T/promote_exchange
		echo 2 >/proc/sys/kernel/numa_balancing ;;
	damon | damon-xo) ;;
	policy) echo 1 >$T/policy ;;
	# policy-scanN: the policy looking at N pages per interval (default
	# 4096); not in the default list
	policy-scan[1-9]*)
		echo "${1#policy-scan}" >$T/policy_scan_pages || return 1
		echo 1 >$T/policy ;;
	*) echo "unknown configuration $1" >&2; return 1 ;;
	esac
}

teardown() {
	damo stop >/dev/null 2>&1
	echo 0 >/proc/sys/kernel/numa_balancing
	echo 0 >$T/promote_batch
	echo 0 >$T/promote_exchange
	[ ! -e $T/policy ] || echo 0 >$T/policy
	[ -z "$scan0" ] || echo "$scan0" >$T/policy_scan_pages
	mo_select cpu >/dev/null
	unfill0
}
scan0=$(cat $T/policy_scan_pages 2>/dev/null)
# The tiering events, in an instance of our own (none if the kernel has
# no such events)
TI=/sys/kernel/tracing/instances/tierbench
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
tevents=()
for ev in mm_tier_policy mm_promote_drain; do
	[ -d /sys/kernel/tracing/events/migrate/$ev ] && tevents+=("$ev")
done
if [ ${#tevents[@]} -gt 0 ] && mkdir -p $TI 2>/dev/null; then
	echo 2048 >$TI/buffer_size_kb
	for ev in "${tevents[@]}"; do echo 1 >"$TI/events/migrate/$ev/enable"; done
	echo 0 >$TI/tracing_on
else
	TI=
fi

damo_init >/dev/null 2>&1 || echo "tiering: no damo, DAMON configurations skipped" >&2
has_xo=0
damo start --ops paddr --numa_node 2 --damos_action migrate_hot 0 \
	--damos_access_rate 100% 100% --damos_age 1000s max >/dev/null 2>&1 &&
	[ -e $SCHEMES/0/contexts/0/schemes/0/exchange_on_full ] && has_xo=1
damo stop >/dev/null 2>&1
swapoff -a 2>/dev/null
# Node 0's DMA zone would count as room (tests/vm/lib/tiers.sh)
ratio=$(cat /proc/sys/vm/lowmem_reserve_ratio)
reserve_dma0
tlb_churn 0
trap 'teardown; kill $TLB_CHURN_PID; swapon -a 2>/dev/null; echo "$ratio" >/proc/sys/vm/lowmem_reserve_ratio; [ -z "$TI" ] || rmdir $TI' EXIT

# What the runs had, for the report
{
	nbdir=/sys/kernel/debug/sched/numa_balancing
	[ -d /sys/kernel/debug/sched ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	echo "tierbench ${targs[*]}; runs $runs, interleaved; lowmem_reserve_ratio $(tr '\t' ' ' </proc/sys/vm/lowmem_reserve_ratio) (was ${ratio//$'\t'/ });" \
		"numa_balancing scan_period_min/max_ms $(cat $nbdir/scan_period_min_ms 2>/dev/null)/$(cat $nbdir/scan_period_max_ms 2>/dev/null)," \
		"hot_threshold_ms $(cat $nbdir/hot_threshold_ms 2>/dev/null), promote_rate_limit_MBps $(cat /proc/sys/kernel/numa_balancing_promote_rate_limit_MBps);" \
		"promote_batch_kb/delay_ms/queue_kb $(cat $T/promote_batch_kb)/$(cat $T/promote_delay_ms)/$(cat $T/promote_queue_kb);" \
		"THP $(cat $THP/enabled); swap off; node 0 filled with huge pages to between its low and high watermarks with the workload's fast part in place;" \
		"tierbench on CPU 0 beside tlb_churn (a process waking 50 times a second)"
} >"$out/settings.txt"
printf 'config\trun\t%s\tkthread_s\tsummary\n' "$(IFS=$'\t'; echo "${counters[*]}")" >"$out/runs.tsv"
for ((r = 1; r <= runs; r++)); do
	for c in "${configs[@]}"; do
		if [ "$c" = damon-xo ] && [ $has_xo = 0 ]; then
			echo "tiering: $c skipped: no exchange_on_full in this kernel" >&2
			continue
		fi
		if [[ $c == policy* ]] && [ ! -e $T/policy ]; then
			echo "tiering: $c skipped: no tiering policy in this kernel" >&2
			continue
		fi
		# A round can leave node 0 to a kswapd that gave up (run 3 of
		# the 2026-11-27 boot 3): every run starts with it awake
		if [ "$(node0_unreclaimable)" = "node_unreclaimable 1" ]; then
			if revive_kswapd0; then
				echo "tiering: run $r $c: node 0's kswapd had given up; revived" >&2
			else
				echo "tiering: run $r $c: node 0's kswapd has given up; not revived" >&2
			fi
		fi
		setup "$c" || { echo "tiering: $c: set-up failed" >&2; teardown; continue; }
		fill0 "$fast_mib"
		# Node 0 as the run found it, at the end of runs.tsv's row
		n0="node0_free=$(free0) node0_dma32_free=$(zfree0) node0_high=$(wmark0 high)"
		n0+=" node0_$(node0_unreclaimable | tr ' ' =)"
		declare -A before=()
		for k in "${counters[@]}"; do before[$k]=$(vmstat "$k"); done
		rm -f "$out/$c-$r.threads"
		read -ra k0 <<<"$(kthread_ticks "$out/$c-$r.threads" start)"
		rm -f /tmp/tierbench-ready
		marker=()
		if [ -n "$TI" ]; then
			echo >$TI/trace
			echo 1 >$TI/tracing_on
			marker=(--marker "$TI/trace_marker")
		fi
		taskset -c 0 "$TOP/tools/tierbench/tierbench" "${targs[@]}" "${marker[@]}" \
			--ready /tmp/tierbench-ready >"$out/$c-$r.csv" &
		pid=$!
		while [ ! -e /tmp/tierbench-ready ] && kill -0 $pid 2>/dev/null; do sleep 0.1; done
		damon_on "$c" || echo "tiering: $c: damo failed" >&2
		wait $pid
		rc=$?
		read -ra k1 <<<"$(kthread_ticks "$out/$c-$r.threads" end)"
		if [ -n "$TI" ]; then
			echo 0 >$TI/tracing_on
			grep -v '^#' $TI/trace >"$out/$c-$r.trace"
		fi
		row="$c\t$r"
		for k in "${counters[@]}"; do row+="\t$(($(vmstat "$k") - ${before[$k]}))"; done
		sum=$(grep '^summary' "$out/$c-$r.csv")
		[ $rc = 0 ] || sum+=" exit=$rc"
		sum+=" $n0"
		# each kind of thread's share, in seconds
		kt=(kpromoted kdamond kswapd kcompactd) total=0
		for i in 0 1 2 3; do
			sum+=" cpu_${kt[i]}=$(secs $((k1[i] - k0[i])))"
			total=$((total + k1[i] - k0[i]))
		done
		printf "$row\t%s\t%s\n" "$(secs "$total")" "$sum" >>"$out/runs.tsv"
		echo "tiering: run $r $c: ${sum#summary }" >&2
		teardown
	done
done
