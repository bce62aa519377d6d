# SPDX-License-Identifier: GPL-2.0
# Sourced by every entry script: the harness's Python (pytest, matplotlib,
# virtme-ng's vng) comes from the venv that scripts/setup.sh creates.
# shellcheck shell=bash
# MEMACCEL_TOP: the repository (tests point it at a scratch one)
MEMACCEL_TOP=${MEMACCEL_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
case ":$PATH:" in
*":${MEMACCEL_VENV:-$MEMACCEL_TOP/build/venv}/bin:"*) ;;
*) export PATH="${MEMACCEL_VENV:-$MEMACCEL_TOP/build/venv}/bin:$PATH" ;;
esac

# new_results_dir: make results/<UTC date-time>-<commit>/ (the commit with
# "-dirty" when the work tree has changes), point results/latest at it and
# print its path. Each make demo or make bench-phases run gets its own.
new_results_dir() {
	local commit d
	commit=$(git -C "$MEMACCEL_TOP" rev-parse --short HEAD 2>/dev/null || echo nogit)
	[ -z "$(git -C "$MEMACCEL_TOP" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
		commit+=-dirty
	d=$MEMACCEL_TOP/results/$(date -u +%Y%m%d-%H%M%S)-$commit
	mkdir -p "$d"
	ln -sfn "$(basename "$d")" "$MEMACCEL_TOP/results/latest"
	echo "$d"
}

# run_guarded CMD...: run CMD (vm-run) and wait for it, passing a SIGTERM,
# SIGINT or SIGHUP of this script on to it; the script then dies of the
# same signal. bash runs no trap while it waits for a foreground command,
# and dies of an untrapped SIGTERM without passing it on: "kill <make>"
# used to leave vm-run and its guest running until the VM's timeout.
# Returns CMD's exit status.
run_guarded() {
	local rc
	"$@" &
	_guarded=$!
	wait "$_guarded"
	rc=$?
	# wait returns early when a trapped signal arrives: the trap below
	# has run; wait for the child's own end
	while kill -0 "$_guarded" 2>/dev/null; do
		wait "$_guarded"
		rc=$?
	done
	_guarded=
	return $rc
}
_guard_signal() {
	if [ -n "${_guarded:-}" ]; then
		kill -s "$1" "$_guarded" 2>/dev/null
		wait "$_guarded" 2>/dev/null
	fi
	trap - "$1"
	kill -s "$1" $$
}
for _sig in TERM INT HUP; do
	# shellcheck disable=SC2064 # the signal name is fixed here
	trap "_guard_signal $_sig" "$_sig"
done

# step NAME...: start a stage of make test or make demo; prints its name and
# the seconds since the start. stage_times prints how long each stage took.
_t0=$(date +%s)
_stage=
_stage_t=$_t0
_stages=()
step() {
	local now
	now=$(date +%s)
	[ -n "$_stage" ] && _stages+=("$(printf '%6ds  %s' $((now - _stage_t)) "$_stage")")
	echo "== $* ($((now - _t0))s)"
	_stage=$*
	_stage_t=$now
}
stage_times() {
	local now
	now=$(date +%s)
	echo "stage times (total $((now - _t0))s):"
	printf '%s\n' "${_stages[@]}"
	printf '%6ds  %s\n' $((now - _stage_t)) "$_stage"
}
