#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The kernel log of the whole guest run, boot included, must hold no warning, BUG, oops,
# lockdep splat or list corruption report.
. "$(dirname "$0")/lib/ktap.sh"
ktap_plan 1
bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops|general protection|Call Trace:|possible circular locking|list_(add|del) corruption|RCU detected stall|soft lockup|hung_task' || true)
if [ -z "$bad" ]; then
	ktap_ok "dmesg: no kernel warnings, BUGs or lockdep reports"
else
	ktap_fail "dmesg: no kernel warnings, BUGs or lockdep reports"
	dmesg | grep -E -B2 -A20 'WARNING:|BUG:|Oops|possible circular locking|corruption' | head -80 | ktap_diag
fi
ktap_finished
