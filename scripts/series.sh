#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Series hygiene for build/linux <-> kernel/patches.
#   series.sh export   write kernel/patches and kernel/series from the tree
#   series.sh matches  exit 0 if kernel/patches equals what the tree exports
#   series.sh check    the series applies to the pristine base, the export
#                      matches the tree, and every patch is checkpatch --strict clean
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${KTREE:-$top/build/linux}
kdir=${KSERIES:-$top/kernel}   # where series and patches/ live
BASE_TAG=memaccel-base
export GIT_AUTHOR_NAME="memaccel" GIT_AUTHOR_EMAIL="memaccel@localhost"
export GIT_COMMITTER_NAME="memaccel" GIT_COMMITTER_EMAIL="memaccel@localhost"

die() { echo "series: $*" >&2; exit 1; }
[ -e "$tree/.git" ] || die "$tree is not a kernel tree; run 'make kernel-tree'"

# Deterministic format-patch output: no commit ids, no git version signature.
fmt() {
	git -C "$tree" format-patch -q --zero-commit --no-signature \
		--full-index -o "$1" "$BASE_TAG..HEAD" >/dev/null
}

series_files() { grep -vE '^[[:space:]]*(#|$)' "$kdir/series" || true; }

cmd_export() {
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
		die "$tree has uncommitted changes; commit them first"
	rm -f "$kdir"/patches/*.patch
	mkdir -p "$kdir/patches"
	fmt "$kdir/patches"
	{
		sed -n '/^#/p' "$kdir/series"
		(cd "$kdir/patches" && ls -1 -- *.patch 2>/dev/null || true)
	} >"$kdir/series.new"
	mv "$kdir/series.new" "$kdir/series"
	echo "series: exported $(series_files | wc -l) patches to kernel/patches"
}

cmd_matches() {
	local tmp rc=0
	tmp=$(mktemp -d)
	fmt "$tmp"
	diff -r -q "$tmp" "$kdir/patches" --exclude=.gitkeep >/dev/null || rc=1
	diff <(cd "$tmp" && ls -1 -- *.patch 2>/dev/null || true) <(series_files) >/dev/null || rc=1
	rm -rf "$tmp"
	return $rc
}

cmd_check() {
	local fail=0 tmp wt f
	# 1. Applies cleanly to the pristine base, in a scratch worktree.
	tmp=$(mktemp -d)
	wt="$tmp/wt"
	git -C "$tree" worktree add -q --detach "$wt" "$BASE_TAG"
	mapfile -t files < <(series_files | sed "s|^|$kdir/patches/|")
	if [ "${#files[@]}" -gt 0 ]; then
		if git -C "$wt" am -q "${files[@]}"; then
			echo "ok - series applies to the pristine base (${#files[@]} patches)"
		else
			echo "not ok - series does not apply to the pristine base"
			git -C "$wt" am --abort >/dev/null 2>&1 || true
			fail=1
		fi
	else
		echo "ok - series is empty"
	fi
	git -C "$tree" worktree remove --force "$wt"
	rm -rf "$tmp"
	# 2. Exported files match the tree.
	if cmd_matches; then
		echo "ok - kernel/patches matches $tree"
	else
		echo "not ok - kernel/patches differs from $tree (run 'make export-patches')"
		fail=1
	fi
	# 3. checkpatch --strict on every patch.
	for f in $(series_files); do
		# spdxcheck.py needs the Debian python3 (ply, GitPython)
		if (cd "$tree" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet --no-summary \
			"$kdir/patches/$f") >"${TMPDIR:-/tmp}/checkpatch.$$" 2>&1; then
			echo "ok - checkpatch --strict $f"
		else
			echo "not ok - checkpatch --strict $f"
			sed 's/^/#   /' "${TMPDIR:-/tmp}/checkpatch.$$"
			fail=1
		fi
	done
	rm -f "${TMPDIR:-/tmp}/checkpatch.$$"
	return $fail
}

case "${1:-}" in
export) cmd_export ;;
matches) cmd_matches ;;
check) cmd_check ;;
*) die "usage: series.sh export|matches|check" ;;
esac
