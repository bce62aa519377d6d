#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# DAMON tiering on 4node-tiered, driven by damo (requirements.txt), with
# NUMA balancing off so that only DAMON moves pages:
#
#   migrate_hot to node 0 of pages on node 2 that migcheck's writers and
#     readers touch, under every engine: half of them reach node 0 with
#     every word intact
#   migrate_cold to node 2 of pages on node 0 that nothing touches
#
# exchange_on_full (migrate_hot into a full node by exchange) is not in the
# series yet: kernel/wip/damon-exchange-on-full.patch.
. "$(dirname "$0")/lib/ktap.sh"
. "$(dirname "$0")/lib/engines.sh"
. "$(dirname "$0")/lib/damo.sh"
[ "${MEMACCEL_TOPOLOGY:-}" = 4node-tiered ] || ktap_skip_all "needs the 4node-tiered topology"
engines=(cpu mtcopy-2 dcbm-2)
ktap_plan $((1 + ${#engines[@]} + 1))

restore /proc/sys/kernel/numa_balancing
at_exit write_value $MO/engine cpu
echo 0 >/proc/sys/kernel/numa_balancing

out=$(damo_init 2>&1)
rc=$?
printf '%s\n' "$out" | head -3 | ktap_diag
ktap_result "damo runs and reads the kernel's DAMON features" $rc
[ $rc = 0 ] || ktap_bail_out "no damo"

# damo_start NODE ACTION TARGET: one paddr scheme over NODE's memory
# shellcheck disable=SC2317 # run through require
damo_start() {
	local rate
	case $2 in
	migrate_hot) rate=(--damos_access_rate 5% max --damos_age 0 max) ;;
	migrate_cold) rate=(--damos_access_rate 0% 0% --damos_age 1s max) ;;
	esac
	damo start --ops paddr --numa_node "$1" --damos_action "$2" "$3" \
		"${rate[@]}" >/dev/null
}
# migcheck of folios on node $1 that must reach node $2, with DAMON started
# (damo_start $1 ACTION $2) once they are filled and their policy reset
# shellcheck disable=SC2317 # run through ktap_check
await() {
	local src=$1 action=$2 dst=$3 pid rc _
	shift 3
	rm -f /tmp/damon-ready
	taskset -c 0 "$MIGCHECK" --src "$src" --await "$dst" --size 4096 \
		--ready /tmp/damon-ready "$@" &
	pid=$!
	for _ in $(seq 600); do
		[ -e /tmp/damon-ready ] && break
		sleep 0.1
	done
	damo_start "$src" "$action" "$dst"
	wait "$pid"
	rc=$?
	damo stop >/dev/null 2>&1
	return "$rc"
}

# -- migrate_hot, every engine
for e in "${engines[@]}"; do
	require "engine $e" mo_select "$e"
	ktap_check "$e: migrate_hot moved half of 32 MiB 2 -> 0, writers running, data intact" \
		await 2 migrate_hot 0 --total 32M --await-pct 50 --timeout 90 --writers 1 --readers 1
done
require "engine cpu" mo_select cpu

# -- migrate_cold
ktap_check "migrate_cold moved half of 32 MiB of untouched pages 0 -> 2, data intact" \
	await 0 migrate_cold 2 --total 32M --await-pct 50 --timeout 90 --writers 0 --readers 0

ktap_finished
