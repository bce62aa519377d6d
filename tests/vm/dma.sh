#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DMA offload: swdma passes dmatest on every channel; dcbm over swdma with
# 1, 2, 4 and 8 channels keeps every folio size and mixed lists intact
# with writers and readers running; the size threshold and large_only
# decide what the CPU copies; each swdma fault mode (failed descriptor,
# lost completion, out-of-order completion) loses no data, leaks no
# descriptor and is accounted exactly; a device that completes late and
# cannot be terminated writes only memory dcbm still holds (quarantine),
# and its channel is given up; a batch that finds every channel busy is
# left to the CPU; channels come only from the listed providers, and a
# channels write that finds none keeps the old channels; a storm switches
# engines, changes channel counts, staging and fault modes, and reloads
# both modules while migrating and exchanging. CONFIG_DMA_API_DEBUG (test kernel) reports any DMA mapping
# left behind when swdma goes away, which the dmesg check catches.
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
set -u
sizes=(4096 16384 65536 262144 1048576 2097152)
channel_counts=(1 2 4 8)
SWDMA_CHANNELS=8
# bad input: "name|file|value"
bad=(
	"dcbm channels 0|$DCBM/channels|0"
	"dcbm channels 17|$DCBM/channels|17"
	"dcbm timeout_ms 5|$DCBM/timeout_ms|5"
	"dcbm threshold_kb not a number|$DCBM/threshold_kb|4k"
	"dcbm providers empty|$DCBM/providers|"
	"dcbm providers with a space|$DCBM/providers|swdma idxd"
	"swdma reorder 17|$SWDMA/reorder|17"
)
# swdma fault modes: "name|knob|value"
faults=(
	"failed descriptors (every 3rd)|fail|3"
	"lost completions (every 50th)|lose|50"
	"out-of-order completion (windows of 8)|reorder|8"
)
ktap_plan $((2 + ${#bad[@]} + 2 + SWDMA_CHANNELS +
	${#channel_counts[@]} * (${#sizes[@]} + 2) + 2 +
	3 * ${#faults[@]} + 4 + 2 + 3 + 3))

modprobe -r dcbm swdma dmatest 2>/dev/null
restore $MO/batch_min $MO/engine $MO/reasons
at_exit modprobe -r dcbm swdma dmatest
at_exit write_value $MO/engine cpu
echo cpu >$MO/engine
echo all >$MO/reasons

# --- interface -------------------------------------------------------------
# enodev_cpu_stays ERR: the write failed with ENODEV and cpu is still active
# (called through ktap_check)
# shellcheck disable=SC2317
enodev_cpu_stays() { [[ $1 == *"No such device"* ]] && grep -q '^\[cpu\]' "$MO/engine"; }
require "dcbm module" modprobe dcbm
err=$( (echo dcbm >$MO/engine) 2>&1)
ktap_check "dcbm: selecting it with no DMA channel fails with ENODEV, cpu stays" \
	enodev_cpu_stays "$err"
require "swdma module" modprobe swdma channels=$SWDMA_CHANNELS
mapfile -t chans < <(cd /sys/class/dma && shopt -s nullglob && printf '%s\n' *chan* | sort -V)
ktap_check "swdma: $SWDMA_CHANNELS memcpy channels registered" test "${#chans[@]}" = $SWDMA_CHANNELS

in_use() { cat /sys/class/dma/*chan*/in_use | awk '{s += $1} END {print s}'; }
for b in "${bad[@]}"; do
	IFS='|' read -r name file value <<<"$b"
	[ "$name" = "dcbm providers empty" ] && value=$'\n'
	bad_input "$name" "$file" "$value"
done

# --- providers: only listed drivers' channels, and all-or-nothing writes ---
providers=$(cat $DCBM/providers)
echo idxd,ptdma >$DCBM/providers
err=$( (echo dcbm >$MO/engine) 2>&1)
ktap_check "providers without swdma: selecting dcbm fails with ENODEV, cpu stays" \
	enodev_cpu_stays "$err"
echo "$providers" >$DCBM/providers
mo_select dcbm-2
echo idxd >$DCBM/providers
err=$( (echo 4 >$DCBM/channels) 2>&1)
echo "$providers" >$DCBM/providers
snap dcbm:dma_bytes
"$MIGCHECK" --size 65536 --total 4M --moves 1 >/dev/null
d=$(since dcbm:dma_bytes)
echo "channels 2 -> 4, no listed provider has more: ${err:-accepted}, channels=$(cat $DCBM/channels), in use $(in_use)" | ktap_diag
ktap_check "channels 2 -> 4 with no more channel to find: the 2 held stay held and used (dma_bytes +$d)" \
	test "$(in_use)" = 2 -a "$d" -gt 0
echo cpu >$MO/engine

# --- dmatest on every swdma channel ---------------------------------------
require "dmatest module" modprobe dmatest
P=/sys/module/dmatest/parameters
echo 3000 >$P/timeout
echo 40 >$P/iterations
echo 1 >$P/threads_per_chan
# The log is not cleared: the final dmesg check must see all of it.
n0=$(dmesg | wc -l)
for c in "${chans[@]}"; do echo "$c" >$P/channel; done
echo 1 >$P/run
cat $P/wait >/dev/null
# exactly SWDMA_CHANNELS results, as planned: one per channel swdma should
# have registered, a missing one failed
for i in $(seq 0 $((SWDMA_CHANNELS - 1))); do
	c=${chans[i]:-missing-channel-$i}
	line=$(dmesg | tail -n +$((n0 + 1)) | grep "$c-copy0: summary" | tail -1)
	if [[ "$line" =~ summary\ ([0-9]+)\ tests,\ 0\ failures ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
		ktap_ok "dmatest: $c"
	else
		ktap_fail "dmatest: $c"
	fi
	echo "${line:-no summary}" | ktap_diag
done
modprobe -r dmatest

# --- integrity over 1, 2, 4, 8 channels ------------------------------------
for n in "${channel_counts[@]}"; do
	mo_select "dcbm-$n"
	snap dcbm:dma_bytes
	for s in "${sizes[@]}"; do
		run_check "dcbm-$n: ${s}B folios, concurrent writers+readers" \
			--size "$s" --total 8M --moves 2 --writers 2 --readers 1
	done
	run_check "dcbm-$n: mixed 4K..2M folios, concurrent writers+readers" \
		--mixed --total 12M --moves 3 --writers 2 --readers 1
	d=$(since dcbm:dma_bytes)
	ktap_check "dcbm-$n: holds $n channels, DMA copied $d bytes" \
		test "$(in_use)" = "$n" -a "$d" -gt 0
done

# --- threshold and large_only ------------------------------------------------
mo_select dcbm-4
echo 32 >$DCBM/threshold_kb
snap dcbm:cpu_folios dcbm:dma_folios
"$MIGCHECK" --size 4096 --total 4M --moves 1 --strict-moves >/dev/null
c=$(since dcbm:cpu_folios) d=$(since dcbm:dma_folios)
ktap_check "threshold 32K: 4K folios copied by the CPU (cpu_folios +$c, dma_folios +$d)" \
	test "$c" -ge 1024 -a "$d" = 0
echo 1 >$DCBM/large_only
snap dcbm:cpu_folios dcbm:dma_folios
"$MIGCHECK" --size 65536 --total 4M --moves 1 --strict-moves >/dev/null
c=$(since dcbm:cpu_folios) d=$(since dcbm:dma_folios)
snap dcbm:dma_folios
"$MIGCHECK" --size 2097152 --total 8M --moves 1 --strict-moves >/dev/null
d2=$(since dcbm:dma_folios)
ktap_check "large_only: 64K folios by the CPU (+$c), 2M by DMA (+$d2)" \
	test "$c" -ge 64 -a "$d" = 0 -a "$d2" -ge 4
echo 0 >$DCBM/large_only
echo 0 >$DCBM/threshold_kb

# --- swdma fault modes -------------------------------------------------------
# The counters a fault mode moves.
FAULT_CTRS=(mo:fallbacks dcbm:fallbacks dcbm:errors dcbm:timeouts swdma:failed swdma:lost
	dcbm:dma_folios swdma:reordered)
# swdma_knob KNOB N: fail, lose and late are swdma's fault-injection
# capabilities inject_fail, inject_lose and inject_late (every Nth
# descriptor; 0: none), the others its parameters.
swdma_knob() {
	case $1 in
	fail|lose|late) fault_arm $SWDBG/inject_"$1" "$2" ;;
	*) echo "$2" >$SWDMA/"$1" ;;
	esac
}
# fault_accounted KNOB: whether the counter increases D[] after that fault
# mode account for it exactly (called through ktap_check).
# shellcheck disable=SC2317
fault_accounted() {
	case $1 in
	fail)	# each failed descriptor is one error and one fallback in
		# dcbm and in the core
		test "${D[swdma:failed]}" -gt 0 -a "${D[dcbm:errors]}" = "${D[swdma:failed]}" \
		     -a "${D[dcbm:fallbacks]}" = "${D[swdma:failed]}" \
		     -a "${D[mo:fallbacks]}" = "${D[swdma:failed]}" ;;
	lose)	# batches time out, every unfinished folio falls back
		test "${D[swdma:lost]}" -gt 0 -a "${D[dcbm:timeouts]}" -ge 1 \
		     -a "${D[dcbm:fallbacks]}" -ge "${D[swdma:lost]}" \
		     -a "${D[mo:fallbacks]}" = "${D[dcbm:fallbacks]}" -a "${D[dcbm:errors]}" = 0 ;;
	reorder) # every folio by DMA, none falls back
		test "${D[swdma:reordered]}" -gt 0 -a "${D[mo:fallbacks]}" = 0 \
		     -a "${D[dcbm:errors]}" = 0 -a "${D[dcbm:dma_folios]}" -ge 2048 ;;
	esac
}
# fault NAME KNOB VALUE: 4K folios, one descriptor each, moved with strict
# checks under that fault mode; three results.
declare -A D
fault() {
	local name=$1 knob=$2 val=$3 c out rc
	swdma_knob "$knob" "$val"
	snap "${FAULT_CTRS[@]}"
	out=$("$MIGCHECK" --size 4096 --total 4M --moves 2 --writers 1 --strict-moves 2>&1) && rc=0 || rc=$?
	for c in "${FAULT_CTRS[@]}"; do D[$c]=$(since "$c"); done
	swdma_knob "$knob" 0
	echo "$name: $(deltas "${FAULT_CTRS[@]}")" | ktap_diag
	ktap_check "$name: data intact, every move complete" test $rc = 0
	[ $rc = 0 ] || echo "$out" | tail -3 | ktap_diag
	ktap_check "$name: no descriptor left in swdma" test "$(cat $SWDBG/live)" = 0
	ktap_check "$name: every fault accounted for" fault_accounted "$knob"
}
mo_select dcbm-4
restore $DCBM/timeout_ms $SWDMA/late_ms $SWDMA/terminate_fails $SWDMA/latency_ns
# Only move_pages through the engine while counting (see offload.sh).
echo syscall >$MO/reasons
for f in "${faults[@]}"; do
	IFS='|' read -r name knob value <<<"$f"
	# a lost completion is found by the timeout
	if [ "$knob" = lose ]; then echo 200 >$DCBM/timeout_ms; else echo 5000 >$DCBM/timeout_ms; fi
	fault "$name" "$knob" "$value"
done
echo 5000 >$DCBM/timeout_ms

# A device that completes late and whose terminate fails: the folios of
# its unfinished descriptors stay held by dcbm until the late write lands,
# and the move leaves them where they are. After the last move every page
# gets new contents and is checked past the late writes (--settle): had a
# destination been mapped or freed, a late write of the old data would
# show.
echo 200 >$DCBM/timeout_ms
echo 3000 >$SWDMA/late_ms
echo 1 >$SWDMA/terminate_fails
snap dcbm:quarantined dcbm:broken swdma:late
swdma_knob late 40
out=$("$MIGCHECK" --size 4096 --total 4M --moves 1 --writers 2 --readers 1 --settle 4000 2>&1) && rc=0 || rc=$?
swdma_knob late 0
echo "late completion: $(deltas dcbm:quarantined dcbm:broken swdma:late), held now $(ctr dcbm:held)" | ktap_diag
ktap_check "late completion, terminate fails: data intact through the late writes" test "$rc" = 0
[ "$rc" = 0 ] || echo "$out" | tail -3 | ktap_diag
ktap_check "late completion: descriptors held, channels given up" \
	test "$(since dcbm:quarantined)" -gt 0 -a "$(since dcbm:broken)" -gt 0 -a "$(since swdma:late)" -gt 0
for _ in $(seq 50); do [ "$(ctr dcbm:held)" = 0 ] && break; sleep 0.2; done
ktap_check "late completion: every held descriptor released once done, none left in swdma" \
	test "$(ctr dcbm:held)" = 0 -a "$(cat $SWDBG/live)" = 0
echo 0 >$SWDMA/terminate_fails
echo 1000 >$SWDMA/late_ms
# new channels replace the broken ones
mo_select dcbm-4
ktap_check "after the quarantine: dcbm holds 4 healthy channels again" test "$(in_use)" = 4
echo 5000 >$DCBM/timeout_ms

# Every channel busy: two migrations at once on one slow channel
mo_select dcbm-1
echo 1000000 >$SWDMA/latency_ns
snap dcbm:busy
"$MIGCHECK" --size 4096 --total 4M --moves 2 --writers 1 >/dev/null 2>&1 & p1=$!
"$MIGCHECK" --size 4096 --total 4M --moves 2 --writers 1 --src 1 --dst 0 >/dev/null 2>&1 & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
echo 0 >$SWDMA/latency_ns
u=$(since dcbm:busy)
ktap_check "one channel, two migrations: $u batches found it busy and went to the CPU, data intact" \
	test $r1 = 0 -a $r2 = 0 -a "$u" -gt 0
ktap_check "busy channel: no descriptor left in swdma" test "$(cat $SWDBG/live)" = 0

echo all >$MO/reasons

# --- storm -----------------------------------------------------------------
secs=${MEMACCEL_STORM_SECONDS:-30}
echo 200 >$DCBM/timeout_ms
staged=
[ -e $DCBM/staging ] && staged=s
storm_start dstorm
switches=0 reloads=0 end=$(( $(date +%s) + secs ))
while [ "$(date +%s)" -lt "$end" ]; do
	# with staging where dcbm has it, so that exchanges go by DMA too
	for n in 1$staged 8 2$staged; do
		mo_select "dcbm-$n" && switches=$((switches + 1))
		sleep 0.3
	done
	swdma_knob fail 7; swdma_knob reorder 4; sleep 0.3
	swdma_knob fail 0; swdma_knob reorder 0
	swdma_knob lose 40; sleep 0.3; swdma_knob lose 0
	mo_select mtcopy-2 && switches=$((switches + 1))
	sleep 0.2
	mo_select dcbm-4
	# dcbm unloaded while active: cpu takes over, the channels are released
	modprobe -r dcbm && reloads=$((reloads + 1))
	# swdma can go once nobody holds its channels
	modprobe -r swdma && reloads=$((reloads + 1))
	mo_select dcbm-4 && switches=$((switches + 1))
done
storm_stop
xok=0
storm_exchanged || xok=1
echo "storm: ${secs}s, $STORM_RUNS migcheck runs ($STORM_XRUNS exchanging, $STORM_XPAGES pages exchanged), $switches engine selections, $reloads module unloads; core stats: $(mo_stats)" | ktap_diag
ktap_check "storm: engines switched, dcbm and swdma reloaded while migrating and exchanging" \
	test "$reloads" -gt 1 -a "$switches" -gt 2 -a "$STORM_RUNS" -gt 0 -a "$xok" = 0
ktap_check "storm: no descriptor left in swdma" test "$(cat $SWDBG/live)" = 0

# --- unload ----------------------------------------------------------------
mo_select dcbm-2
ktap_check "swdma cannot be unloaded while dcbm holds its channels" \
	bash -c "! modprobe -r swdma 2>/dev/null && grep -q '\[dcbm\]' $MO/engine"
echo cpu >$MO/engine
ktap_check "selecting cpu releases the channels" test "$(in_use)" = 0
ktap_check "swdma and dcbm unload once cpu is selected" modprobe -r dcbm swdma
ktap_finished
