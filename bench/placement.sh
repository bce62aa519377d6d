# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the bench/ guest scripts (after tests/vm/lib/engines.sh, for
# TOP). placement_hold starts "migbench --hold-placement" in the
# background. It holds the 2 MB blocks of nodes 0 and 1 where a folio
# would move between frames that alias in QEMU TCG's software TLB
# (docs/benchmarks.md, "mtcopy at 2 MB and the slow state"), so that every
# configuration is measured on placements of one kind; migbench's
# tlb_alias_folios column shows whether it held. MIGBENCH_PLACEMENT=any
# leaves placement to the allocator. placement_release stops the holder.
# The holder's log is a new file of this run (mktemp, under $TMPDIR): with
# a fixed name, the wait below could read the "placement held" of an
# earlier run's log before the holder's redirection emptied it.
placement_pid=
placement_log=

placement_hold() {
	if [ "${MIGBENCH_PLACEMENT:-hold}" = any ]; then
		echo "placement: left to the allocator (MIGBENCH_PLACEMENT=any)"
		return 0
	fi
	placement_log=$(mktemp -t placement-hold.XXXXXX)
	"$TOP/tools/migbench/migbench" --hold-placement >"$placement_log" 2>&1 &
	placement_pid=$!
	until grep -q '^placement held' "$placement_log"; do
		if ! kill -0 "$placement_pid" 2>/dev/null; then
			cat "$placement_log" >&2
			echo "placement: the holder failed" >&2
			placement_pid=
			rm -f "$placement_log"
			return 1
		fi
		sleep 0.2
	done
	cat "$placement_log"
}

placement_release() {
	[ -n "$placement_pid" ] || return 0
	kill "$placement_pid" 2>/dev/null || true
	wait "$placement_pid" 2>/dev/null || true
	placement_pid=
	rm -f "$placement_log"
}
