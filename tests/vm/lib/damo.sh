# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# damo, DAMON's user-space tool (pinned in requirements.txt), for the
# in-guest tests. scripts/setup.sh installs it in the harness's venv
# (MEMACCEL_VENV, default build/venv), which the guest sees read-only at
# the host's path, as it sees the rest of the host's file system; the
# venv's python3 is a link to the host's /usr/bin/python3. Sourced after
# ktap.sh:
#
#   damo_path        print the venv's damo; fails, with the reason on
#                    stderr, when there is none or it does not run
#   damo ARGS...     run it, with a HOME of its own (below)
#   damo_init        check that it runs and let it learn the kernel's DAMON
#                    features; call it before DAMON starts, e.g.
#                    require "damo from the venv" damo_init
#
# damo keeps what it learnt about the kernel in $HOME/.damo.sysinfo and
# cannot learn it again while DAMON runs (its sysfs feature probe refuses
# then), so every call of a test, in subshells too, shares one writable
# HOME: a new directory in the guest's own /tmp, made when this file is
# sourced and removed when the test exits.
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
DAMO_HOME=$(mktemp -d /tmp/damo.XXXXXX)
if declare -F at_exit >/dev/null; then
	at_exit rm -rf "$DAMO_HOME"
fi

damo_path() {
	local venv=${MEMACCEL_VENV:-$TOP/build/venv} out
	local bin=$venv/bin/damo
	if [ ! -x "$bin" ]; then
		echo "no damo in $venv (scripts/setup.sh installs it from requirements.txt)" >&2
		return 1
	fi
	if ! out=$(HOME=$DAMO_HOME "$bin" version 2>&1); then
		echo "$bin does not run: $(printf '%s\n' "$out" | tail -1)" >&2
		return 1
	fi
	echo "$bin"
}

# The path is checked once (a damo version run) and kept: later calls,
# in a test's loops, run damo alone.
DAMO_BIN=
damo() {
	[ -n "$DAMO_BIN" ] || DAMO_BIN=$(damo_path) || return 1
	HOME=$DAMO_HOME "$DAMO_BIN" "$@"
}

damo_init() {
	local version info
	version=$(damo version) || return 1
	if ! info=$(damo report sysinfo 2>&1); then
		printf '%s\n' "$info" >&2
		return 1
	fi
	printf 'damo %s\n%s\n' "$version" "$info"
}
