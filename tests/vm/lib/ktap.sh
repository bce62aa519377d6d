# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# KTAP output for the in-guest tests, after the kselftest helpers
# (tools/testing/selftests/kselftest/ktap_helpers.sh): a test sources this,
# announces its plan with ktap_plan (computed from the arrays it iterates
# over), reports one result per check, and ends with ktap_finished, which
# fails the test when a result is missing or one too many.
#
#   ktap_plan N               header and plan
#   ktap_skip_all REASON      plan "1..0 # SKIP REASON" and exit 0
#   ktap_bail_out REASON      "Bail out! REASON" and exit 1: one failure,
#                             the rest of the plan is not counted
#   require DESC CMD...       set-up step; bails out when CMD fails
#   ktap_ok/ktap_fail NAME, ktap_skip NAME REASON, ktap_result NAME RC
#   ktap_check NAME CMD...    ok iff CMD succeeds (its output shown on failure;
#                             with KTAP_SHOW=REGEX, its matching lines on success)
#   ktap_expect_rc NAME RC CMD...
#   ktap_diag                 stdin as "# " diagnostic lines
#   at_exit CMD...            run CMD when the test exits, however it exits,
#                             in reverse order of registration
#   restore FILE...           write FILE's current value back at exit
#   write_value FILE VALUE    for at_exit: "at_exit write_value FILE cpu"
KTAP_N=0
KTAP_PLAN=
KTAP_FAILED=0
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}

ktap_plan() {
	KTAP_PLAN=$1
	echo "KTAP version 1"
	echo "1..$1"
}
ktap_skip_all() {
	echo "KTAP version 1"
	echo "1..0 # SKIP $*"
	exit 0
}
ktap_bail_out() {
	echo "Bail out! $*"
	exit 1
}
# The time since the last result, when it is 5 s or more, as a diagnostic
# after the result: where make test's hour goes.
KTAP_T=$SECONDS
ktap_took() {
	local d=$((SECONDS - KTAP_T))
	KTAP_T=$SECONDS
	[ "$d" -lt 5 ] || echo "# took ${d}s"
}
ktap_ok() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N $*"; ktap_took; }
ktap_fail() { KTAP_N=$((KTAP_N + 1)); KTAP_FAILED=1; echo "not ok $KTAP_N $*"; ktap_took; }
ktap_skip() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N $1 # SKIP $2"; ktap_took; }
ktap_result() { # NAME RC
	if [ "$2" = 0 ]; then ktap_ok "$1"; else ktap_fail "$1"; fi
}
ktap_diag() { sed 's/^/# /'; }
ktap_check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		ktap_ok "$name"
		[ -z "${KTAP_SHOW:-}" ] ||
			printf '%s\n' "$out" | grep -e "$KTAP_SHOW" | ktap_diag
	else
		ktap_fail "$name"
		printf '%s\n' "$out" | tail -20 | ktap_diag
	fi
}
ktap_expect_rc() {
	local name=$1 want=$2 out rc
	shift 2
	out=$("$@" 2>&1) && rc=0 || rc=$?
	if [ "$rc" = "$want" ]; then
		ktap_ok "$name"
	else
		ktap_fail "$name"
		echo "exit code $rc, expected $want" | ktap_diag
		printf '%s\n' "$out" | tail -20 | ktap_diag
	fi
}
require() {
	local desc=$1 out
	shift
	out=$("$@" 2>&1) && return 0
	printf '%s\n' "$out" | tail -10 | ktap_diag
	ktap_bail_out "set-up failed: $desc"
}
ktap_finished() {
	if [ -n "$KTAP_PLAN" ] && [ "$KTAP_N" != "$KTAP_PLAN" ]; then
		echo "# planned $KTAP_PLAN results, reported $KTAP_N"
		exit 1
	fi
	exit $KTAP_FAILED
}

KTAP_AT_EXIT=()
ktap_run_at_exit() {
	local i
	for ((i = ${#KTAP_AT_EXIT[@]} - 1; i >= 0; i--)); do
		# one undo that fails (a module already gone) must not stop
		# the others, with or without set -e
		eval "${KTAP_AT_EXIT[i]}" >/dev/null 2>&1 || true
	done
	KTAP_AT_EXIT=()
}
trap ktap_run_at_exit EXIT
at_exit() {
	local q
	printf -v q '%q ' "$@"
	KTAP_AT_EXIT+=("$q")
}
restore() {
	local f
	for f in "$@"; do
		at_exit write_value "$f" "$(cat "$f")"
	done
}
# write_value FILE VALUE: write VALUE to FILE; a value read from a sysfs
# file that shows a choice as "a [b] c" writes back the bracketed word.
write_value() {
	local v=$2
	[[ "$v" =~ \[([^]]*)\] ]] && v=${BASH_REMATCH[1]}
	echo "$v" >"$1"
}
