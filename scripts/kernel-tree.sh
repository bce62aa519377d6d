#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Create build/linux: a git tree whose root commit is the pristine base named
# in kernel/BASE, with kernel/series applied on top by `git am`.
#
# Re-running is safe: a tree that already holds exactly the exported series is
# left alone; a tree with work that is not in kernel/patches is never
# discarded unless FORCE=1 is given.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/kernel/BASE"
tree=${KTREE:-$top/build/linux}
BASE_TAG=memaccel-base
export GIT_AUTHOR_NAME="memaccel" GIT_AUTHOR_EMAIL="memaccel@localhost"
export GIT_COMMITTER_NAME="memaccel" GIT_COMMITTER_EMAIL="memaccel@localhost"

series_files() {
	grep -vE '^[[:space:]]*(#|$)' "$top/kernel/series" | sed "s|^|$top/kernel/patches/|"
}

make_base() {
	local tmp
	echo "kernel-tree: extracting $TARBALL"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" -xf "$TARBALL"
	tmp=$(find "$tree.tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
	mv "$tmp" "$tree"
	rm -rf "$tree.tmp"
	git -C "$tree" init -q -b main
	git -C "$tree" config core.autocrlf false
	git -C "$tree" config gc.auto 0
	git -C "$tree" add -A -f .
	git -C "$tree" commit -q -m "base: $PACKAGE $VERSION" \
		-m "Pristine tree from $TARBALL (sha256 $SHA256)."
	git -C "$tree" tag "$BASE_TAG"
}

apply_series() {
	local files
	mapfile -t files < <(series_files)
	[ "${#files[@]}" -gt 0 ] || { echo "kernel-tree: series is empty"; return 0; }
	echo "kernel-tree: applying ${#files[@]} patches"
	git -C "$tree" am -q --keep-cr "${files[@]}" || {
		git -C "$tree" am --abort || true
		echo "kernel-tree: series does not apply to the base" >&2
		exit 1
	}
}

if [ -d "$tree/.git" ] && git -C "$tree" rev-parse -q --verify "$BASE_TAG" >/dev/null; then
	want=$(series_files | wc -l)
	have=$(git -C "$tree" rev-list --count "$BASE_TAG..HEAD")
	dirty=$(git -C "$tree" status --porcelain --untracked-files=no | head -1)
	if [ -z "$dirty" ] && "$top/scripts/series.sh" matches >/dev/null 2>&1; then
		echo "kernel-tree: $tree is up to date ($have patches)"
		exit 0
	fi
	if [ "${FORCE:-0}" != 1 ] && { [ -n "$dirty" ] || [ "$have" != 0 ]; }; then
		echo "kernel-tree: $tree has work not in kernel/patches ($have commits, series has $want)." >&2
		echo "  Run 'make export-patches' to keep it, or FORCE=1 make kernel-tree to discard it." >&2
		exit 1
	fi
	git -C "$tree" reset -q --hard "$BASE_TAG"
else
	make_base
fi
apply_series
echo "kernel-tree: $tree ready ($(git -C "$tree" rev-list --count "$BASE_TAG..HEAD") patches on $VERSION)"
