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
