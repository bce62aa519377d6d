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
# channels write that finds none keeps the old channels; a storm switches engines, changes
# channel counts and fault modes, and reloads both modules while
# migrating. CONFIG_DMA_API_DEBUG (test kernel) reports any DMA mapping
# left behind when swdma goes away, which the dmesg check catches.
. "$(dirname "$0")/lib.sh"
set -u
sizes="4096 16384 65536 262144 1048576 2097152"
SWDBG=/sys/kernel/debug/swdma
DCBM_ST=$MO_ENGINES/dcbm
ktap_plan $(( 9 + 2 + 8 + 4 * 8 + 2 + 9 + 6 + 3 + 3 ))

modprobe -r dcbm swdma dmatest 2>/dev/null
echo cpu >$MO/engine
echo all >$MO/reasons

# --- interface -------------------------------------------------------------
modprobe dcbm
err=$( (echo dcbm >$MO/engine) 2>&1)
ktap_check "dcbm: selecting it with no DMA channel fails with ENODEV, cpu stays" \
	bash -c "[[ '$err' == *'No such device'* ]] && grep -q '^\[cpu\]' $MO/engine"
modprobe swdma channels=8
chans=$(cd /sys/class/dma && printf '%s\n' *chan* | sort -V)
ktap_check "swdma: 8 memcpy channels registered" test "$(echo "$chans" | wc -w)" = 8

in_use() { cat /sys/class/dma/*chan*/in_use | awk '{s += $1} END {print s}'; }
bad_param() {
	local name=$1 f=$2 v=$3 before after
	before=$(cat "$f")
	if (printf '%s' "$v" >"$f") 2>/dev/null; then
		ktap_fail "bad input: $name accepted"
	else
		after=$(cat "$f")
		if [ "$before" = "$after" ]; then
			ktap_ok "bad input: $name -> refused, unchanged"
		else
			ktap_fail "bad input: $name changed $before -> $after"
		fi
	fi
}
bad_param "dcbm channels 0" $DCBM/channels 0
bad_param "dcbm channels 17" $DCBM/channels 17
bad_param "dcbm timeout_ms 5" $DCBM/timeout_ms 5
bad_param "dcbm threshold_kb not a number" $DCBM/threshold_kb 4k
bad_param "dcbm providers empty" $DCBM/providers $'\n'
bad_param "dcbm providers with a space" $DCBM/providers "swdma idxd"
bad_param "swdma reorder 17" $SWDMA/reorder 17

# --- providers: only listed drivers' channels, and all-or-nothing writes ---
providers=$(cat $DCBM/providers)
echo idxd,ptdma >$DCBM/providers
err=$( (echo dcbm >$MO/engine) 2>&1)
ktap_check "providers without swdma: selecting dcbm fails with ENODEV, cpu stays" \
	bash -c "[[ '$err' == *'No such device'* ]] && grep -q '^\[cpu\]' $MO/engine"
echo "$providers" >$DCBM/providers
mo_select dcbm-2
echo idxd >$DCBM/providers
err=$( (echo 4 >$DCBM/channels) 2>&1)
echo "$providers" >$DCBM/providers
d0=$(cat $DCBM_ST/dma_bytes)
"$MIGCHECK" --size 65536 --total 4M --moves 1 >/dev/null
d1=$(cat $DCBM_ST/dma_bytes)
echo "channels 2 -> 4, no listed provider has more: ${err:-accepted}, channels=$(cat $DCBM/channels), in use $(in_use)" | ktap_diag
ktap_check "channels 2 -> 4 with no more channel to find: the 2 held stay held and used (dma_bytes +$((d1 - d0)))" \
	test "$(in_use)" = 2 -a "$d1" -gt "$d0"
echo cpu >$MO/engine

# --- dmatest on every swdma channel ---------------------------------------
modprobe dmatest
P=/sys/module/dmatest/parameters
echo 3000 >$P/timeout
echo 40 >$P/iterations
echo 1 >$P/threads_per_chan
# The log is not cleared: the final dmesg check must see all of it.
n0=$(dmesg | wc -l)
for c in $chans; do echo "$c" >$P/channel; done
echo 1 >$P/run
cat $P/wait >/dev/null
for c in $chans; do
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
run_check() {
	local name=$1 out
	shift
	if out=$("$MIGCHECK" "$@" 2>&1); then
		ktap_ok "$name"
	else
		ktap_fail "$name"
		echo "$out" | tail -5 | ktap_diag
	fi
}
for n in 1 2 4 8; do
	mo_select dcbm-$n
	d0=$(cat $DCBM_ST/dma_bytes)
	for s in $sizes; do
		run_check "dcbm-$n: ${s}B folios, concurrent writers+readers" \
			--size "$s" --total 8M --moves 2 --writers 2 --readers 1
	done
	run_check "dcbm-$n: mixed 4K..2M folios, concurrent writers+readers" \
		--mixed --total 12M --moves 3 --writers 2 --readers 1
	d1=$(cat $DCBM_ST/dma_bytes)
	ktap_check "dcbm-$n: holds $n channels, DMA copied $((d1 - d0)) bytes" \
		test "$(in_use)" = "$n" -a "$d1" -gt "$d0"
done

# --- threshold and large_only ------------------------------------------------
mo_select dcbm-4
echo 32 >$DCBM/threshold_kb
c0=$(cat $DCBM_ST/cpu_folios) d0=$(cat $DCBM_ST/dma_folios)
"$MIGCHECK" --size 4096 --total 4M --moves 1 --strict-moves >/dev/null
c1=$(cat $DCBM_ST/cpu_folios) d1=$(cat $DCBM_ST/dma_folios)
ktap_check "threshold 32K: 4K folios copied by the CPU (cpu_folios +$((c1 - c0)), dma_folios +$((d1 - d0)))" \
	test $((c1 - c0)) -ge 1024 -a "$d1" = "$d0"
echo 1 >$DCBM/large_only
c0=$(cat $DCBM_ST/cpu_folios) d0=$(cat $DCBM_ST/dma_folios)
"$MIGCHECK" --size 65536 --total 4M --moves 1 --strict-moves >/dev/null
c1=$(cat $DCBM_ST/cpu_folios) d1=$(cat $DCBM_ST/dma_folios)
"$MIGCHECK" --size 2097152 --total 8M --moves 1 --strict-moves >/dev/null
d2=$(cat $DCBM_ST/dma_folios)
ktap_check "large_only: 64K folios by the CPU (+$((c1 - c0))), 2M by DMA (+$((d2 - d1)))" \
	test $((c1 - c0)) -ge 64 -a "$d1" = "$d0" -a $((d2 - d1)) -ge 4
echo 0 >$DCBM/large_only
echo 0 >$DCBM/threshold_kb

# --- swdma fault modes -------------------------------------------------------
# snap: core fallbacks, dcbm fallbacks, dcbm errors, dcbm timeouts,
# swdma failed, swdma lost, dcbm dma_folios
snap() {
	echo "$(mo_stat fallbacks) $(cat $DCBM_ST/fallbacks) $(cat $DCBM_ST/errors)" \
	     "$(cat $DCBM_ST/timeouts) $(cat $SWDBG/failed) $(cat $SWDBG/lost)" \
	     "$(cat $DCBM_ST/dma_folios)"
}
# swdma_knob KNOB N: fail, lose and late are swdma's fault-injection
# capabilities inject_fail, inject_lose and inject_late (every Nth
# descriptor; 0: none), the others its parameters.
swdma_knob() {
	case $1 in
	fail|lose|late) fault_arm $SWDBG/inject_"$1" "$2" ;;
	*) echo "$2" >$SWDMA/"$1" ;;
	esac
}
# fault NAME KNOB VALUE: 4K folios, one descriptor each, moved with strict
# checks; sets D[] to the counter deltas.
fault() {
	local name=$1 knob=$2 val=$3 a b i out rc
	swdma_knob "$knob" "$val"
	a=($(snap))
	out=$("$MIGCHECK" --size 4096 --total 4M --moves 2 --writers 1 --strict-moves 2>&1)
	rc=$?
	b=($(snap))
	swdma_knob "$knob" 0
	D=()
	for i in 0 1 2 3 4 5 6; do D[i]=$((b[i] - a[i])); done
	echo "$name: core fallbacks +${D[0]}, dcbm fallbacks +${D[1]} errors +${D[2]} timeouts +${D[3]}, swdma failed +${D[4]} lost +${D[5]}, dma_folios +${D[6]}" | ktap_diag
	ktap_check "$name: data intact, every move complete" test $rc = 0
	[ $rc = 0 ] || echo "$out" | tail -3 | ktap_diag
	ktap_check "$name: no descriptor left in swdma" test "$(cat $SWDBG/live)" = 0
}
mo_select dcbm-4
# Only move_pages through the engine while counting (see offload.sh).
echo syscall >$MO/reasons
fault "failed descriptors (every 3rd)" fail 3
ktap_check "failed descriptors: each is one error and one fallback in dcbm and core" \
	test "${D[4]}" -gt 0 -a "${D[2]}" = "${D[4]}" -a "${D[1]}" = "${D[4]}" -a "${D[0]}" = "${D[4]}"
echo 200 >$DCBM/timeout_ms
fault "lost completions (every 50th)" lose 50
ktap_check "lost completions: batches time out, every unfinished folio falls back" \
	test "${D[5]}" -gt 0 -a "${D[3]}" -ge 1 -a "${D[1]}" -ge "${D[5]}" -a "${D[0]}" = "${D[1]}" -a "${D[2]}" = 0
echo 5000 >$DCBM/timeout_ms
r0=$(cat $SWDBG/reordered)
fault "out-of-order completion (windows of 8)" reorder 8
r1=$(cat $SWDBG/reordered)
ktap_check "out-of-order completion: $((r1 - r0)) out of order, every folio by DMA, no fallback" \
	test $((r1 - r0)) -gt 0 -a "${D[0]}" = 0 -a "${D[2]}" = 0 -a "${D[6]}" -ge 2048

# A device that completes late and whose terminate fails: the folios of
# its unfinished descriptors stay held by dcbm until the late write lands,
# and the move leaves them where they are. After the last move every page
# gets new contents and is checked past the late writes (--settle): had a
# destination been mapped or freed, a late write of the old data would
# show.
echo 200 >$DCBM/timeout_ms
echo 3000 >$SWDMA/late_ms
echo 1 >$SWDMA/terminate_fails
a=($(snap)) q0=$(cat $DCBM_ST/quarantined) b0=$(cat $DCBM_ST/broken) l0=$(cat $SWDBG/late)
swdma_knob late 40
out=$("$MIGCHECK" --size 4096 --total 4M --moves 1 --writers 2 --readers 1 --settle 4000 2>&1)
rc=$?
swdma_knob late 0
q1=$(cat $DCBM_ST/quarantined) b1=$(cat $DCBM_ST/broken) l1=$(cat $SWDBG/late)
echo "late completion: quarantined +$((q1 - q0)) descriptors, broken +$((b1 - b0)) channels, swdma late +$((l1 - l0)), held now $(cat $DCBM_ST/held)" | ktap_diag
ktap_check "late completion, terminate fails: data intact through the late writes" test $rc = 0
[ $rc = 0 ] || echo "$out" | tail -3 | ktap_diag
ktap_check "late completion: descriptors held, channels given up" \
	test $((q1 - q0)) -gt 0 -a $((b1 - b0)) -gt 0 -a $((l1 - l0)) -gt 0
for i in $(seq 50); do [ "$(cat $DCBM_ST/held)" = 0 ] && break; sleep 0.2; done
ktap_check "late completion: every held descriptor released once done, none left in swdma" \
	test "$(cat $DCBM_ST/held)" = 0 -a "$(cat $SWDBG/live)" = 0
echo 0 >$SWDMA/terminate_fails
echo 1000 >$SWDMA/late_ms
# new channels replace the broken ones
mo_select dcbm-4
ktap_check "after the quarantine: dcbm holds 4 healthy channels again" test "$(in_use)" = 4
echo 5000 >$DCBM/timeout_ms

# Every channel busy: two migrations at once on one slow channel
mo_select dcbm-1
echo 1000000 >$SWDMA/latency_ns
u0=$(cat $DCBM_ST/busy)
"$MIGCHECK" --size 4096 --total 4M --moves 2 --writers 1 >/dev/null 2>&1 & p1=$!
"$MIGCHECK" --size 4096 --total 4M --moves 2 --writers 1 --src 1 --dst 0 >/dev/null 2>&1 & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
echo 0 >$SWDMA/latency_ns
u1=$(cat $DCBM_ST/busy)
ktap_check "one channel, two migrations: $((u1 - u0)) batches found it busy and went to the CPU, data intact" \
	test $r1 = 0 -a $r2 = 0 -a $((u1 - u0)) -gt 0
ktap_check "busy channel: no descriptor left in swdma" test "$(cat $SWDBG/live)" = 0

echo all >$MO/reasons

# --- storm -----------------------------------------------------------------
secs=${MEMACCEL_STORM_SECONDS:-30}
echo 200 >$DCBM/timeout_ms
storm_start dstorm
switches=0 reloads=0 end=$(( $(date +%s) + secs ))
while [ "$(date +%s)" -lt "$end" ]; do
	for n in 1 8 2; do
		mo_select dcbm-$n && switches=$((switches + 1))
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
echo "storm: ${secs}s, $STORM_RUNS migcheck runs, $switches engine selections, $reloads module unloads; core stats: $(mo_snap)" | ktap_diag
ktap_check "storm: engines switched, dcbm and swdma reloaded while migrating" \
	test "$reloads" -gt 1 -a "$switches" -gt 2 -a "$STORM_RUNS" -gt 0
ktap_check "storm: no descriptor left in swdma" test "$(cat $SWDBG/live)" = 0

# --- unload ----------------------------------------------------------------
mo_select dcbm-2
ktap_check "swdma cannot be unloaded while dcbm holds its channels" \
	bash -c "! modprobe -r swdma 2>/dev/null && grep -q '\[dcbm\]' $MO/engine"
echo cpu >$MO/engine
ktap_check "selecting cpu releases the channels" test "$(in_use)" = 0
ktap_check "swdma and dcbm unload once cpu is selected" modprobe -r dcbm swdma
ktap_exit
