#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Does DAMON stop seeing a pinned writer's accesses (TCG softmmu TLB keeps
# the A bit) unless something switches mm on its CPU?
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tests/vm/lib/ktap.sh"
. "$TOP/tests/vm/lib/engines.sh"
. "$TOP/tests/vm/lib/damo.sh"
echo 0 >/proc/sys/kernel/numa_balancing
damo_init >/dev/null 2>&1 || echo damo_init failed
KD=/sys/kernel/mm/damon/admin/kdamonds/0
SC=$KD/contexts/0/schemes/0
rm -f /tmp/ready
taskset -c 0 "$MIGCHECK" --src 2 --await 0 --size 4096 --total 32M --writers 1 --readers 1 --ready /tmp/ready --timeout 400 --await-pct 100 >/tmp/mc.log 2>&1 &
mc=$!
for _ in $(seq 600); do [ -e /tmp/ready ] && break; sleep 0.1; done
damo start --ops paddr --numa_node 2 --monitoring_nr_regions_range 100 1000 --damos_action stat --damos_access_rate 5% max --damos_age 0 max >/dev/null || echo damo start failed
tried() { echo update_schemes_stats >$KD/state; cat $SC/stats/nr_tried; }
phase() {
	local p=$1 t0 t1 i
	for i in 1 2 3 4; do
		t0=$(tried); sleep 5; t1=$(tried)
		echo "$p: nr_tried +$((t1 - t0)) in 5 s"
	done
}
for _ in 1 2 3; do
	phase "alone"
	taskset -c 0 python3 -c 'import time
while 1: time.sleep(0.02)' &
	co=$!
	phase "co-runner"
	kill $co; wait $co 2>/dev/null
done
damo stop
kill $mc; wait $mc
tail -3 /tmp/mc.log
