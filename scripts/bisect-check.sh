#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the kernel at every patch of the series, in a scratch worktree, with
# the test configuration (ccache makes each step incremental). Bisectability:
# fails at the first patch that does not build.
#   bisect-check.sh [FIRST]   from commit FIRST of build/linux on (default:
#                             the base, then every patch)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
wt=$top/build/bisect-wt
git -C "$tree" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
git -C "$tree" worktree prune
git -C "$tree" worktree add -q --detach "$wt" memaccel-base
trap 'git -C "$tree" worktree remove --force "$wt"' EXIT
first=${1:-memaccel-base}
mapfile -t commits < <(git -C "$tree" rev-list --reverse "$first"..HEAD)
n=$(git -C "$tree" rev-list --count memaccel-base.."$first")
echo "bisect-check: patch $n ($first) + ${#commits[@]} patches"
for c in "$first" "${commits[@]}"; do
	git -C "$wt" checkout -q --detach "$c"
	subj=$(git -C "$wt" log -1 --format=%s)
	if MEMACCEL_PARTIAL_SERIES=1 KBUILD_OUT=$top/build/kbuild-bisect \
	   "$top/scripts/build-kernel.sh" test "$wt" >/dev/null; then
		echo "ok $n - builds: $subj"
	else
		echo "not ok $n - does not build: $subj (log: build/kbuild-bisect/build.log)"
		exit 1
	fi
	n=$((n + 1))
done
