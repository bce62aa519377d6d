#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Migration copy offload: sysfs interface and bad input, data integrity for
# every folio size and mixed lists with concurrent writers and readers under
# each engine (cpu, mtcopy with 1, 2 and 4 threads, and 2 threads sharing
# whole folios), fault injection with
# exact fallback accounting, tracepoints and vmstat counters against the
# sysfs ones, batch_min, migration reasons (move_pages, compaction), and
# mtcopy backing off when the other CPUs are busy.
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
set -u
engines=(cpu mtcopy-1 mtcopy-2 mtcopy-2w mtcopy-4)
sizes=(4096 16384 65536 262144 1048576 2097152)
# bad input: "name|file|value"
bad=(
	"engine unknown name|$MO/engine|nosuch"
	"engine empty|$MO/engine|"$'\n'
	"reasons unknown name|$MO/reasons|syscall,bogus"
	"reasons empty element|$MO/reasons|syscall,,numa"
	"reasons all mixed with names|$MO/reasons|all,syscall"
	"batch_max 0|$MO/batch_max|0"
	"batch_max above 128 MiB|$MO/batch_max|32769"
	"batch_max not a number|$MO/batch_max|12k"
	"batch_min 0|$MO/batch_min|0"
	"batch_min above 128 MiB|$MO/batch_min|32769"
	"mtcopy threads 33|$MTCOPY/threads|33"
)
# fault injection: "every Nth folio, every Mth batch, folio size"
injections=("3 0 4096" "2 0 2097152" "5 0 65536" "0 2 4096" "0 1 2097152" "7 3 16384")
per_engine=$((2 * ${#sizes[@]} + 3))
ktap_plan $((5 + ${#bad[@]} + 4 + ${#engines[@]} * per_engine + ${#injections[@]} +
	2 + 2 + 4 + 2 + 1 + 2 + 1))

# Whatever happens below, the settings come back.
require "mtcopy module" modprobe mtcopy
restore $MO/batch_min $MO/engine $MO/reasons $MO/batch_max $MTCOPY/threads
[ -e $MTCOPY/split_folios ] && restore $MTCOPY/split_folios $MTCOPY/thread_min_kb
at_exit modprobe -r mtcopy
at_exit write_value $MO/engine cpu

# --- interface ---------------------------------------------------------
ktap_check "sysfs: migrate_offload files present" \
	test -w $MO/engine -a -w $MO/reasons -a -w $MO/batch_max -a \
	     -w $MO/batch_min -a \
	     -r $MO/stats/batches -a -r $MO/stats/folios -a -r $MO/stats/bytes -a \
	     -r $MO/stats/fallbacks -a -r $MO/stats/errors -a -r $MO/stats/small
ktap_check "sysfs: engine lists cpu and mtcopy, cpu active" \
	grep -qx '\[cpu\] mtcopy' $MO/engine
ktap_check "sysfs: mtcopy's counters in engines/mtcopy/, read-only, none elsewhere" \
	bash -c "[ \"\$(stat -c %a $MO_ENGINES/mtcopy/split_batches $MO_ENGINES/mtcopy/alone_batches)\" = \$'444\\n444' ] &&
		 [ ! -e $MTCOPY/split_batches ] && [ ! -e $MO_ENGINES/cpu ]"
ktap_check "sysfs: defaults reasons=all but memory_failure, batch_max=512, batch_min=1" \
	bash -c "[ \"\$(cat $MO/batch_max)\" = 512 ] && [ \"\$(cat $MO/batch_min)\" = 1 ] &&
		 [ \"\$(cat $MO/reasons)\" = compaction,hotplug,syscall,mbind,numa,contig_range,longterm_pin,demotion,damon ]"
# A freshly loaded mtcopy: 4 threads that cut folios into 64 KB chunks.
ktap_check "sysfs: mtcopy defaults threads=4, thread_min_kb=64, split_folios=Y" \
	bash -c "modprobe -r mtcopy && modprobe mtcopy &&
		 [ \"\$(cat $MTCOPY/threads $MTCOPY/thread_min_kb $MTCOPY/split_folios)\" = \$'4\\n64\\nY' ]"

echo mtcopy >$MO/engine
echo syscall,numa >$MO/reasons
for b in "${bad[@]}"; do
	IFS='|' read -r name file value <<<"$b"
	[ "$name" = "engine empty" ] && value=$'\n'
	bad_input "$name" "$file" "$value"
done
echo cpu >$MO/engine
echo all >$MO/reasons

# --- memaccelctl on the real files ---------------------------------------
CTL=$TOP/tools/memaccelctl/memaccelctl
ktap_check "memaccelctl: engine mtcopy selects it" \
	bash -c "$CTL engine mtcopy && grep -qx 'cpu \[mtcopy\]' $MO/engine"
ktap_check "memaccelctl: set mtcopy.threads=2" \
	bash -c "$CTL set mtcopy.threads=2 && grep -qx 2 $MTCOPY/threads"
ktap_check "memaccelctl: --json reports engine, threads and stats" \
	bash -c "$CTL --json | python3 -c 'import json,sys; s=json.load(sys.stdin); assert s[\"engine\"]==\"mtcopy\" and s[\"knobs\"][\"mtcopy\"][\"threads\"]==\"2\" and \"fallbacks\" in s[\"stats\"] and \"split_batches\" in s[\"engine_stats\"][\"mtcopy\"]'"
ktap_check "memaccelctl: kernel-side EINVAL is reported, state kept" \
	bash -c "! $CTL set mtcopy.threads=99 2>/tmp/ctl.err && grep -q EINVAL /tmp/ctl.err && grep -qx 2 $MTCOPY/threads"
echo cpu >$MO/engine

# --- integrity per engine -----------------------------------------------
# Every engine: each folio size moved back and forth with 2 writers and a
# reader running (concurrent), then alone with every folio's node and size
# checked after each move (strict); mixed sizes; 2 MB folios 8 per batch.
batch_max=$(cat $MO/batch_max)
for e in "${engines[@]}"; do
	mo_select "$e"
	snap mo:batches
	for s in "${sizes[@]}"; do
		run_check "$e: ${s}B folios, concurrent writers+readers" \
			--size "$s" --total 8M --moves 2 --writers 2 --readers 1
		run_check "$e: ${s}B folios, every move complete" \
			--size "$s" --total 8M --moves 2 --strict-moves
	done
	run_check "$e: mixed 4K..2M folios, concurrent writers+readers" \
		--mixed --total 12M --moves 3 --writers 3 --readers 1
	echo 4096 >$MO/batch_max
	run_check "$e: 2M folios, 8 per batch, concurrent writers" \
		--size 2097152 --total 16M --moves 2 --writers 2 --readers 1
	echo "$batch_max" >$MO/batch_max
	n=$(since mo:batches)
	if [ "$e" = cpu ]; then
		ktap_check "$e: batch path not used (stats/batches +$n)" test "$n" = 0
	else
		ktap_check "$e: batch path used (stats/batches +$n)" test "$n" -gt 0
	fi
done

# --- fault injection -----------------------------------------------------
# inject FOLIO_NTH BATCH_NTH SIZE: move 4 MiB once (strict: every folio must
# migrate) with fail_migrate_offload_folio failing every FOLIO_NTH folio and
# fail_migrate_offload_batch every BATCH_NTH batch; the counters must
# account for every injected failure.
inject() {
	local fnth=$1 bnth=$2 size=$3 finj binj out rc
	local name="fault injection: every ${fnth}th folio, every ${bnth}th batch, ${size}B folios"
	fault_arm $FAIL_FOLIO "$fnth"
	fault_arm $FAIL_BATCH "$bnth"
	snap mo:folios mo:fallbacks mo:errors
	out=$("$MIGCHECK" --size "$size" --total 4M --moves 1 --strict-moves 2>&1) && rc=0 || rc=$?
	local folios fallbacks errors
	folios=$(since mo:folios) fallbacks=$(since mo:fallbacks) errors=$(since mo:errors)
	fault_off $FAIL_FOLIO
	fault_off $FAIL_BATCH
	finj=$(fault_count $FAIL_FOLIO) binj=$(fault_count $FAIL_BATCH)
	local nr=$((4 * 1024 * 1024 / size))
	# Every folio reaches the engine at least once (a folio whose move
	# is retried in the synchronous pass reaches it again); mtcopy fails
	# nothing itself, so every fallback is an injected folio or a folio
	# of an injected batch, and every error an injected batch.
	local ok=1
	[ $rc = 0 ] && [ $((finj + binj)) -gt 0 ] && [ "$errors" = "$binj" ] &&
	   [ $((folios + fallbacks)) -ge "$nr" ] || ok=0
	if [ "$bnth" = 0 ]; then
		[ "$fallbacks" = "$finj" ] || ok=0
	else
		[ "$fallbacks" -ge $((finj + binj)) ] || ok=0
	fi
	if [ $ok = 1 ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name"
		echo "$out" | tail -3 | ktap_diag
	fi
	echo "folios=$nr copied=$folios fallbacks=$fallbacks errors=$errors; injected: $finj folios, $binj batches" | ktap_diag
}
at_exit fault_off $FAIL_FOLIO
at_exit fault_off $FAIL_BATCH
mo_select mtcopy-2
# Only move_pages through the engine while counting: a background
# migration (kcompactd, khugepaged) hit by the injection between two
# counter reads made the counts differ by one in a CI-like run.
echo syscall >$MO/reasons
for i in "${injections[@]}"; do
	read -r fnth bnth size <<<"$i"
	inject "$fnth" "$bnth" "$size"
done

# --- tracepoints and vmstat ------------------------------------------------
# One move of 4 MiB in 4K folios with every 3rd folio failed: the trace and
# /proc/vmstat must tell what stats/ tells, folio for folio.
trace_events on mm_migrate_batch mm_migrate_offload_copy mm_migrate_offload_fallback
fault_arm $FAIL_FOLIO 3
vm=(vmstat:pgmigrate_offload_copied vmstat:pgmigrate_offload_fallback)
snap mo:batches mo:folios mo:fallbacks "${vm[@]}"
"$MIGCHECK" --size 4096 --total 4M --moves 1 --strict-moves >/dev/null 2>&1
rc=$?
d_b=$(since mo:batches) d_f=$(since mo:folios) d_fb=$(since mo:fallbacks)
v_c=$(since "${vm[0]}") v_fb=$(since "${vm[1]}")
fault_off $FAIL_FOLIO
trace_events off mm_migrate_batch mm_migrate_offload_copy mm_migrate_offload_fallback
t_calls=$(grep -c 'mm_migrate_offload_copy: engine=mtcopy reason=syscall_or_cpuset' $TRACEFS/trace)
t_copied=$(grep -o 'mm_migrate_offload_copy: .* copied=[0-9]*' $TRACEFS/trace |
	   awk -F'copied=' '{n += $2} END {print n + 0}')
t_fall=$(grep -c 'mm_migrate_offload_fallback: .*cause=engine' $TRACEFS/trace)
t_batch=$(grep -c 'mm_migrate_batch: reason=syscall_or_cpuset folios=' $TRACEFS/trace)
echo "stats: batches +$d_b folios +$d_f fallbacks +$d_fb; trace: calls $t_calls copied $t_copied fallbacks $t_fall batches $t_batch; vmstat: copied +$v_c fallback +$v_fb" | ktap_diag
ktap_check "trace: one mm_migrate_offload_copy per engine call, copied and fallbacks as in stats/" \
	test $rc = 0 -a "$d_b" -gt 0 -a "$t_calls" = "$d_b" -a "$t_copied" = "$d_f" \
	     -a "$d_fb" -gt 0 -a "$t_fall" = "$d_fb" -a "$t_batch" -ge "$d_b"
ktap_check "vmstat: pgmigrate_offload_copied/fallback count the same 4K pages as stats/" \
	test "$v_c" = "$d_f" -a "$v_fb" = "$d_fb"

# --- batch_min ---------------------------------------------------------------
# Batches of 512 pages below a batch_min of 1024 never reach the engine.
echo 1024 >$MO/batch_min
snap mo:batches mo:small vmstat:pgmigrate_offload_small
"$MIGCHECK" --size 4096 --total 4M --moves 1 --strict-moves >/dev/null 2>&1
rc=$?
echo "batch_min 1024: $(deltas mo:batches mo:small vmstat:pgmigrate_offload_small)" | ktap_diag
ktap_check "batch_min above the batch: engine not called, stats/small and vmstat count it" \
	test $rc = 0 -a "$(since mo:batches)" = 0 -a "$(since mo:small)" -ge 2 \
	     -a "$(since vmstat:pgmigrate_offload_small)" -ge 1024
ktap_check "batch_min: selecting the engine again sets its own (mtcopy: 32)" \
	bash -c "echo cpu >$MO/engine && echo mtcopy >$MO/engine && grep -qx 32 $MO/batch_min"
echo all >$MO/reasons

# --- reasons -------------------------------------------------------------
echo compaction,memory_failure,hotplug,mbind,numa,contig_range,longterm_pin,demotion,damon >$MO/reasons
snap mo:batches
"$MIGCHECK" --size 65536 --total 8M --moves 2 --strict-moves >/dev/null 2>&1
mc=$?
ktap_check "reasons without syscall: move_pages leaves stats untouched, data intact" \
	test "$(since mo:batches)" = 0 -a "$mc" = 0
echo syscall >$MO/reasons
"$MIGCHECK" --size 65536 --total 8M --moves 2 --strict-moves >/dev/null 2>&1
mc=$?
ktap_check "reasons=syscall: move_pages goes through the engine, data intact" \
	test "$(since mo:batches)" -gt 0 -a "$mc" = 0

# compact_node REASONS: fragment node 1, compact it, report batch delta and
# whether the kept data survived.
compact_node() {
	local ready=/tmp/migcheck.ready pid
	echo "$1" >$MO/reasons
	rm -f $ready
	"$MIGCHECK" --fragment --src 1 --total 256M --ready $ready >/tmp/frag.out 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -e $ready ] && break; sleep 0.1; done
	snap mo:batches vmstat:compact_migrate_scanned vmstat:pgmigrate_success
	# A compaction that migrated nothing (it can find the node not worth
	# compacting, or no free page to move to) says nothing about the
	# engine: ask again, at most three times
	for _ in 1 2 3; do
		echo 1 >/sys/devices/system/node/node1/compact
		[ "$(since vmstat:pgmigrate_success)" -gt 0 ] && break
	done
	COMPACT_DELTA=$(since mo:batches)
	COMPACT_SCANNED=$(since vmstat:compact_migrate_scanned)
	COMPACT_MIGRATED=$(since vmstat:pgmigrate_success)
	kill -USR1 $pid
	wait $pid
	COMPACT_RC=$?
	echo "reasons=$1: engine batches +$COMPACT_DELTA, compact_migrate_scanned +$COMPACT_SCANNED, pgmigrate_success +$COMPACT_MIGRATED, $(cat /tmp/frag.out)" | ktap_diag
}
# Compaction migrates at most COMPACT_CLUSTER_MAX (32) pages per batch,
# often fewer, and mtcopy's batch_min is 32: a run whose batches all fell
# short reached the batch path but never the engine, and failed the first
# check. These checks are about the reason switch, so any batch may go.
bmin=$(cat $MO/batch_min)
echo 1 >$MO/batch_min
compact_node compaction
ktap_check "reasons=compaction: compaction of a fragmented node uses the engine" \
	test "$COMPACT_DELTA" -gt 0 -a "$COMPACT_RC" = 0
compact_node syscall
ktap_check "reasons=syscall: compaction leaves the engine alone, data intact" \
	test "$COMPACT_DELTA" = 0 -a "$COMPACT_RC" = 0 -a "$COMPACT_SCANNED" -gt 0
echo "$bmin" >$MO/batch_min
echo all >$MO/reasons

# --- busy system -----------------------------------------------------------
# With every other CPU running a hog, mtcopy must copy alone; once they are
# idle again it must split batches.
echo 4 >$MTCOPY/threads
self=0
for c in $(seq 1 $(( $(nproc) - 1 ))); do hog "$c"; done
sleep 0.5
snap mtcopy:alone_batches mtcopy:split_batches
taskset -c $self "$MIGCHECK" --size 2097152 --total 8M --moves 2 --strict-moves >/dev/null 2>&1
mc=$?
alone=$(since mtcopy:alone_batches) split=$(since mtcopy:split_batches)
hogs_stop
echo "busy: alone_batches +$alone, split_batches +$split, migcheck exit $mc" | ktap_diag
ktap_check "mtcopy: other CPUs busy -> copies alone, never splits, data intact" \
	test "$alone" -gt 0 -a "$split" = 0 -a "$mc" = 0
# With split_folios set (its default), a batch of one 2 MB folio gets a
# helper.
[ -e $MTCOPY/split_folios ] && echo Y >$MTCOPY/split_folios
sleep 0.5
snap mtcopy:split_batches
taskset -c $self "$MIGCHECK" --size 2097152 --total 8M --moves 2 --strict-moves >/dev/null 2>&1
mc=$?
split=$(since mtcopy:split_batches)
echo "idle: split_batches +$split, migcheck exit $mc" | ktap_diag
ktap_check "mtcopy: other CPUs idle -> splits batches, data intact" \
	test "$split" -gt 0 -a "$mc" = 0

# alone_check NAME SIZE MIN_ALONE: move 2 x 8 MiB of SIZE folios from this
# CPU; mtcopy must copy at least MIN_ALONE batches alone, split none, and
# the data must stay intact.
alone_check() {
	local alone split mc
	snap mtcopy:alone_batches mtcopy:split_batches
	taskset -c $self "$MIGCHECK" --size "$2" --total 8M --moves 2 --strict-moves >/dev/null 2>&1
	mc=$?
	alone=$(since mtcopy:alone_batches) split=$(since mtcopy:split_batches)
	echo "$1: alone_batches +$alone, split_batches +$split, migcheck exit $mc" | ktap_diag
	ktap_check "$1: copied alone and counted, data intact" \
		test "$alone" -ge "$3" -a "$split" = 0 -a "$mc" = 0
}

# --- isolated CPUs ---------------------------------------------------------
# An isolated CPU is no helper, however idle (mm/offload_cpus.c): with
# every other CPU in an isolated cpuset partition, mtcopy copies alone.
# The kernel before the fix split these batches onto them as above.
ISO=/sys/fs/cgroup/memaccel-isolated
iso_cpus=$(seq -s, 1 $(($(nproc) - 1)))
iso=
if grep -qw cpuset /sys/fs/cgroup/cgroup.controllers; then
	grep -qw cpuset /sys/fs/cgroup/cgroup.subtree_control ||
		echo +cpuset >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p $ISO
	at_exit rmdir $ISO
	at_exit write_value $ISO/cpuset.cpus.partition member
	echo "$iso_cpus" >$ISO/cpuset.cpus 2>/dev/null &&
		echo isolated >$ISO/cpuset.cpus.partition 2>/dev/null &&
		[ "$(cat $ISO/cpuset.cpus.partition)" = isolated ] && iso=1
fi
if [ "$iso" = 1 ]; then
	alone_check "mtcopy: other CPUs idle but isolated ($iso_cpus)" 2097152 1
	echo member >$ISO/cpuset.cpus.partition
else
	ktap_skip "mtcopy: other CPUs idle but isolated ($iso_cpus): copied alone and counted, data intact" \
		"no isolated cpuset partition of CPUs $iso_cpus: $(cat $ISO/cpuset.cpus.partition 2>&1)"
fi

# --- what a helper needs to pay ------------------------------------------
# With split_folios cleared, mtcopy shares whole folios among threads: a
# batch of one 2 MB folio, however idle the other CPUs, is copied by the
# migrating thread alone (counted), and data stays intact. A batch below
# 2 x thread_min_kb as well. Neither depends on timing.
if [ -e $MTCOPY/split_folios ]; then
	echo N >$MTCOPY/split_folios
	alone_check "mtcopy split_folios=N, one-folio batches of 2 MB" 2097152 8
	echo 4096 >$MTCOPY/thread_min_kb
	alone_check "mtcopy thread_min_kb=4096, 2 MB batches of 4K folios" 4096 1
	echo 64 >$MTCOPY/thread_min_kb
else
	ktap_skip "mtcopy split_folios=N, one-folio batches of 2 MB" "this mtcopy has no split_folios"
	ktap_skip "mtcopy thread_min_kb=4096, 2 MB batches of 4K folios" "this mtcopy has no thread_min_kb"
fi

echo cpu >$MO/engine
modprobe -r mtcopy
ktap_check "sysfs: engines/mtcopy/ goes away with the module" \
	test ! -e $MO_ENGINES/mtcopy -a -d $MO_ENGINES
ktap_finished
