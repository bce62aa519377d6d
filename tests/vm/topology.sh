#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The guest has the NUMA topology and the kernel features memaccel relies on.
# MEMACCEL_TOPOLOGY (2node|2node-4cpu|4node|4node-tiered) says what the
# host asked for. On 4node-tiered the kernel must also have made two memory
# tiers from QEMU's ACPI HMAT (scripts/vm-run), which needs CONFIG_ACPI_HMAT.
. "$(dirname "$0")/lib/ktap.sh"
topo=${MEMACCEL_TOPOLOGY:-2node}
tiered=0
[ "$topo" = 4node-tiered ] && tiered=1
ktap_plan $((8 + 3 * tiered))
nodes=$(cat /sys/devices/system/node/online)
# node:cpulist for every node the topology defines ("" = memory only)
case "$topo" in
2node) want_nodes=0-1; want=(0:0 1:1) ;;
2node-4cpu) want_nodes=0-1; want=(0:0-1 1:2-3) ;;
4node | 4node-tiered) want_nodes=0-3; want=(0:0 1:1 2: 3:) ;;
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
[ $tiered = 1 ] || ktap_finished

# 4node-tiered. The memory tiers, in order of their id (abstract distance
# / 128): the CPU nodes' DRAM tier, then one holding both memory-only nodes.
tiers=/sys/devices/virtual/memory_tiering
got=$(for d in "$tiers"/memory_tier[0-9]*; do
	[ -e "$d/nodelist" ] && echo "${d##*memory_tier} $(cat "$d/nodelist")"
done | sort -n | cut -d' ' -f2 | paste -sd' ')
if [ "$got" = "0-1 2-3" ]; then
	ktap_ok "two memory tiers from the HMAT: nodes 0-1, then 2-3"
else
	ktap_fail "two memory tiers from the HMAT: nodes 0-1, then 2-3"
	{
		echo "memory tiers: ${got:-none}"
		grep -H . "$tiers"/memory_tier*/nodelist
		dmesg | grep -i -E 'hmat|memory-tiers|DRAM node'
	} 2>&1 | ktap_diag
fi
# The HMAT's performance of node 2 from its CPU initiator, as
# node_set_perf_attrs() publishes it (access1: CPU initiators only).
perf=/sys/devices/system/node/node2/access1/initiators
ok=1
vals=
for f in read_latency write_latency read_bandwidth write_bandwidth; do
	[ -r "$perf/$f" ] && vals+=" $f $(cat "$perf/$f")" || ok=0
done
if [ $ok = 1 ]; then
	ktap_ok "node 2 has HMAT access1 initiator performance"
	echo "node 2 from its CPU initiator:$vals (ns, MB/s)" | ktap_diag
else
	ktap_fail "node 2 has HMAT access1 initiator performance"
	{
		echo "under node2 (access0: any initiator, access1: CPUs):"
		find /sys/devices/system/node/node2/ -maxdepth 3 -path '*/access*'
	} 2>&1 | ktap_diag
fi
# mm/memory-tiers.c dump_demotion_targets(), at boot and on every tier
# change: "Demotion targets for Node N: preferred: A, fallback: B"
# (the last one counts).
demotion() {
	dmesg | grep -o "Demotion targets for Node $1: .*" | tail -1
}
d0=$(demotion 0)
d1=$(demotion 1)
if [[ "$d0" == "Demotion targets for Node 0: preferred: 2,"* &&
	"$d1" == "Demotion targets for Node 1: preferred: 3,"* ]]; then
	ktap_ok "demotion targets: node 0 prefers node 2, node 1 prefers node 3"
else
	ktap_fail "demotion targets: node 0 prefers node 2, node 1 prefers node 3"
	dmesg | grep 'Demotion targets' | ktap_diag
fi
ktap_finished
