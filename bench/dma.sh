#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of make demo, DMA part (a benchmark, not a test): dcbm over
# swdma modelled as a PTDMA-like engine.
#   bench/dma.sh CSV         rows written to CSV, this script's own file,
#                            which starts empty (a guest command run again
#                            after a crash leaves no rows of the crashed
#                            attempt); MIGBENCH_ARGS extra args
# 1. Seed 001 table (b): dcbm with 1, 2, 4, 8 channels, every folio by DMA
#    (threshold 0), folio sizes 4K..2M (migbench table a), and the 2 MB
#    folio-count sweep with one channel (table b).
# 2. DSA-2LM workloads A and B (migbench table w), batch_max raised so that
#    a whole workload is one batch: cpu, dcbm-4 with large folios only,
#    dcbm-4 adaptive (threshold 0: small folios grouped per channel), and
#    dcbm-4 adaptive with the default 32 KiB threshold (small folios on
#    the CPU while the channels copy).
# 3. Seed 001's compaction experiment, scaled: see compaction() below.
# swdma model (env): SWDMA_LATENCY_NS [10000], SWDMA_BANDWIDTH_MBPS [400].
# BENCH_DMA_PARTS: which of "channels workloads compaction" to run [all].
# Parts 1 and 2 run with the TLB-alias placement held (bench/placement.sh,
# MIGBENCH_PLACEMENT), part 3 without: it needs node 1's free memory.
. "$(dirname "$0")/../tests/vm/lib/engines.sh"
. "$(dirname "$0")/placement.sh"
set -eu
csv=$1
MB=$TOP/tools/migbench/migbench
"$MB" --csv-header >"$csv"
lat=${SWDMA_LATENCY_NS:-10000}
bw=${SWDMA_BANDWIDTH_MBPS:-400}
modprobe -r dcbm swdma 2>/dev/null || true
modprobe swdma channels=8 latency_ns="$lat" bandwidth_mbps="$bw"
echo all >$MO/reasons
echo "== swdma: 8 channels, latency_ns=$lat, bandwidth_mbps=$bw per channel"
dstats() {
	local k out=
	for k in dma_folios dma_bytes cpu_folios cpu_bytes fallbacks timeouts errors; do
		out+="$k=$(cat $MO_ENGINES/dcbm/$k) "
	done
	echo "dcbm: $out"
}

parts=" ${BENCH_DMA_PARTS:-channels workloads compaction} "
trap placement_release EXIT
placement_hold
[[ "$parts" == *" channels "* ]] && for n in 1 2 4 8; do
	mo_select dcbm-$n
	tables=a
	[ "$n" = 1 ] && tables=a,b
	echo "== dcbm, $n channel(s), threshold_kb=0: tables $tables"
	# shellcheck disable=SC2086
	"$MB" --label "dcbm-${n}ch" --csv "$csv" --tables $tables ${MIGBENCH_ARGS:-}
	dstats
done

wl() {
	local label=$1
	echo "== workloads: $label (engine $(cat $MO/engine), batch_max $(cat $MO/batch_max) pages)"
	# shellcheck disable=SC2086
	"$MB" --label "$label" --csv "$csv" --tables w ${MIGBENCH_ARGS:-}
	[ -d $DCBM ] && dstats
	return 0
}
if [[ "$parts" == *" workloads "* ]]; then
	echo 16384 >$MO/batch_max
	mo_select cpu
	wl cpu
	mo_select dcbm-4
	echo 1 >$DCBM/large_only
	wl dcbm-4ch-large-only
	echo 0 >$DCBM/large_only
	wl dcbm-4ch-adaptive
	echo 32 >$DCBM/threshold_kb
	wl dcbm-4ch-adaptive-32K
	echo 512 >$MO/batch_max
fi
placement_release

# Compaction: fragment node 1 (migcheck fills 2 GiB of its 2.5 GiB with
# base pages and frees every other one, so every 2 MB region is half used),
# then compact node 1 by writing its sysfs compact file from a task pinned
# to CPU 0: compaction of the whole node runs in that task, a fixed amount
# of work per run (asking for huge pages instead made the work vary 50x
# between runs). Reported per engine: wall time, pages migrated, free 2 MB
# blocks on node 1 after, system time of the compacting task, and the
# iterations of a CPU hog pinned to the same CPU (what the copy left it):
# one CSV row (table "compaction", label the engine) per run.
free2m() { awk '$2 == "1," {s += $14 + 2 * $15} END {print s + 0}' /proc/buddyinfo; }
compaction() {
	local label=$1 rep=$2 ready=/tmp/bench-frag.ready pid hog t0 t1 m0 m1 st
	rm -f $ready /tmp/bench-hog
	"$MIGCHECK" --fragment --src 1 --total 2G --ready $ready >/tmp/bench-frag.out 2>&1 &
	pid=$!
	for _ in $(seq 1800); do [ -e $ready ] && break; sleep 0.1; done
	# shellcheck disable=SC2016 # expanded by the inner bash
	taskset -c 0 bash -c 'n=0; trap "echo \$n >/tmp/bench-hog; exit" TERM
		while :; do n=$((n + 1)); done' &
	hog=$!
	sleep 0.5
	m0=$(awk '/^pgmigrate_success/ {print $2}' /proc/vmstat)
	t0=$(date +%s.%N)
	# the write runs in this bash, pinned to CPU 0: its stime is the
	# compaction's (field 15 of /proc/PID/stat, clock ticks)
	# shellcheck disable=SC2016 # expanded by the inner bash
	st=$(taskset -c 0 bash -c 'echo 1 >/sys/devices/system/node/node1/compact
		read -r -a s </proc/$$/stat; echo ${s[14]}')
	t1=$(date +%s.%N)
	m1=$(awk '/^pgmigrate_success/ {print $2}' /proc/vmstat)
	kill $hog; wait $hog 2>/dev/null || true
	local blocks
	blocks=$(free2m)
	kill -USR1 $pid; wait $pid || echo "compaction: migcheck found its data damaged!"
	local sys wall mig=$((m1 - m0))
	sys=$(echo "scale=3; $st / $(getconf CLK_TCK)" | bc)
	wall=$(echo "$t1 - $t0" | bc)
	local hogs
	hogs=$(cat /tmp/bench-hog)
	echo "compaction $label rep $rep: wall $wall s, $mig pages migrated, $blocks free 2 MB blocks after, compacting task sys $sys s, CPU-0 hog $hogs iterations"
	# label,table,<10 migbench columns>,wall_s,cpu_s,first,splits,fail,pages,blocks,hog
	printf '%s,compaction,,,,,,,,%d,%s,%s,,,,%d,%d,%d,,,,,,\n' "$label" "$rep" "$wall" "$sys" \
		"$mig" "$blocks" "$hogs" >>"$csv"
}
[[ "$parts" == *" compaction "* ]] || exit 0
echo "== compaction of node 1, fragmented (2 GiB of its 2.5 GiB filled with base pages, every other one freed)"
# Twice each, alternating. Compaction moves base pages: dcbm-4 (threshold
# 0) sends them all to DMA, as the RFC did.
for r in 0 1; do
	for e in cpu dcbm-4; do
		mo_select $e
		compaction $e $r
	done
done
echo cpu >$MO/engine
