#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Load each KUnit test module listed in tests/vm/kunit.list and report the
# suites it added to debugfs as nested KTAP (the suites' own case lines are
# what get counted).
. "$(dirname "$0")/lib/ktap.sh"
mapfile -t mods < <(grep -vE '^\s*(#|$)' "$(dirname "$0")/kunit.list")
suites() { find /sys/kernel/debug/kunit -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort; }
ktap_plan "${#mods[@]}"
for m in "${mods[@]}"; do
	before=$(suites)
	if ! out=$(modprobe "$m" 2>&1); then
		ktap_fail "kunit module $m: modprobe failed"
		echo "$out" | ktap_diag
		continue
	fi
	new=$(comm -13 <(echo "$before") <(suites))
	for s in $new; do
		sed 's/^/    /' "/sys/kernel/debug/kunit/$s/results"
	done
	modprobe -r "$m" 2>/dev/null
	if [ -n "$new" ]; then
		ktap_ok "kunit module $m"
	else
		ktap_fail "kunit module $m: no suite results in debugfs"
	fi
done
ktap_finished
