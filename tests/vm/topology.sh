#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The guest has the NUMA topology and the kernel features memaccel relies on.
# MEMACCEL_TOPOLOGY (2node|4node) says what the host asked for.
. "$(dirname "$0")/lib/ktap.sh"
topo=${MEMACCEL_TOPOLOGY:-2node}
ktap_plan 8
nodes=$(cat /sys/devices/system/node/online)
# node:cpulist for every node the topology defines ("" = memory only)
case "$topo" in
2node) want_nodes=0-1; want=(0:0 1:1) ;;
2node-4cpu) want_nodes=0-1; want=(0:0-1 1:2-3) ;;
4node) want_nodes=0-3; want=(0:0 1:1 2: 3:) ;;
*) want_nodes=unknown; want=() ;;
esac
if [ "$nodes" = "$want_nodes" ]; then ktap_ok "online nodes $nodes ($topo)"
else ktap_fail "online nodes $nodes, expected $want_nodes ($topo)"; fi
ok=1
for w in "${want[@]}"; do
	[ "$(cat "/sys/devices/system/node/node${w%%:*}/cpulist")" = "${w#*:}" ] || ok=0
done
if [ $ok = 1 ]; then
	ktap_ok "CPUs per node as in $topo (memory-only nodes have none)"
else
	ktap_fail "CPUs per node as in $topo (memory-only nodes have none)"
	grep . /sys/devices/system/node/node*/cpulist | ktap_diag
fi
ok=1
for d in /sys/devices/system/node/node[0-9]*; do
	mb=$(awk '/MemTotal/ {print int($4/1024)}' "$d/meminfo")
	[ "$mb" -ge 700 ] || ok=0
done
if [ $ok = 1 ]; then
	ktap_ok "every node has memory"
else
	ktap_fail "every node has memory"
	grep MemTotal /sys/devices/system/node/node*/meminfo | ktap_diag
fi
ktap_check "mTHP sizes 16K..2M exposed" test -e /sys/kernel/mm/transparent_hugepage/hugepages-16kB/enabled -a \
	-e /sys/kernel/mm/transparent_hugepage/hugepages-1024kB/enabled -a -e /sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled
ktap_check "KSM sysfs present" test -w /sys/kernel/mm/ksm/run
ktap_check "DAMON sysfs present" test -d /sys/kernel/mm/damon/admin
ktap_check "NUMA balancing sysctl present" test -w /proc/sys/kernel/numa_balancing
ktap_check "dmatest module loads and unloads" sh -c 'modprobe dmatest && modprobe -r dmatest'
ktap_finished
