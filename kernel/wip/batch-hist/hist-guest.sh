#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Experiment: per-reason batch-size histograms from mm_migrate_batch + hist triggers.
set -u
cd "$1" || exit 1
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
ev=$T/events/migrate/mm_migrate_batch
echo 'hist:keys=reason,nr_folios.log2:vals=hitcount,nr_pages:sort=reason,nr_folios' > $ev/trigger || { echo "arm failed"; cat $T/error_log; exit 1; }
echo "== syscall: migbench"
tools/migbench/migbench --tables a --sizes 4K,2M --reps 1 | tail -2
echo "== compaction"
echo 1 > /proc/sys/vm/compact_memory
echo "== numa promotion: 256 MB on node 2, touched from CPU 0, numa_balancing=2"
echo 2 > /proc/sys/kernel/numa_balancing
grep -E "pgpromote_success|pgdemote_kswapd|numa_pages_migrated" /proc/vmstat
taskset -c 0 python3 -c '
import os, time, sys
b = bytearray(256 << 20)
print("pid", os.getpid(), flush=True)
os.system("migratepages %d 0 2" % os.getpid())
os.system("grep -E \"^N[0-9]=|anon\" /proc/%d/numa_maps | head -0" % os.getpid())
t = time.time()
while time.time() - t < 60:
    for i in range(0, len(b), 4096):
        b[i] = (b[i] + 1) & 255
' 
grep -E "pgpromote_success|numa_pages_migrated" /proc/vmstat
echo "== demotion: 2.6 GB on node 0 (preferred), demotion_enabled=1"
echo 1 > /sys/kernel/mm/numa/demotion_enabled
echo 0 > /proc/sys/kernel/numa_balancing
taskset -c 0 python3 -c '
import time
bs = []
for k in range(26):
    bs.append(bytearray(100 << 20))
time.sleep(2)
'
grep -E "pgdemote_kswapd|pgdemote_direct" /proc/vmstat
echo "== histogram"
cat $ev/hist
