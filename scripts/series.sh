#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Series hygiene for build/linux <-> kernel/patches.
#   series.sh export   write kernel/patches and kernel/series from the tree,
#                      plus patches/0000-cover-letter.patch if
#                      kernel/cover-letter.txt exists (never listed in series)
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

# Cover letter: cover-letter.txt is "subject\n\nbody". git writes the
# shortlog and diffstat; we only fill in its two placeholders. The 0000
# file is not a patch git am could apply, so kernel/series never lists it.
COVER=0000-cover-letter.patch
cover() {
	local txt=$kdir/cover-letter.txt tmp
	[ -f "$txt" ] || return 0
	[ -n "$(sed -n 1p "$txt")" ] || die "$txt: line 1 must be the subject"
	[ -z "$(sed -n 2p "$txt")" ] || die "$txt: line 2 must be blank"
	tmp=$(mktemp -d)
	# git dates the cover letter "now"; pin it to HEAD's author date
	# (kept by rebases, already in the patches) so matches is stable.
	# --cover-from-description=none: a branch description must not
	# replace the placeholders.
	GIT_COMMITTER_DATE=$(git -C "$tree" log -1 --format=%aI HEAD) \
		git -C "$tree" format-patch -q --zero-commit --no-signature \
		--full-index --cover-letter --cover-from-description=none \
		-o "$tmp" "$BASE_TAG..HEAD" >/dev/null
	# awk, not sed: the text may hold any of sed's special characters.
	# It exits 1 unless both placeholders were found (git's template
	# changed), so a half-filled letter is never written silently.
	txt=$txt awk '
	BEGIN {
		txt = ENVIRON["txt"]
		getline subj <txt; getline line <txt
		n = 0
		while ((getline line <txt) > 0) body[++n] = line
		while (n > 0 && body[n] ~ /^[[:space:]]*$/) n--	# trailing blanks
	}
	/^Subject: .*\*\*\* SUBJECT HERE \*\*\*$/ {
		sub(/\*\*\* SUBJECT HERE \*\*\*$/, ""); print $0 subj; s = 1; next
	}
	$0 == "*** BLURB HERE ***" {
		for (i = 1; i <= n; i++) print body[i]
		b = 1; next
	}
	{ print }
	END { exit !(s && b) }' "$tmp/$COVER" >"$1/$COVER" || {
		rm -rf "$tmp" "${1:?}/$COVER"
		die "$COVER: git's placeholders not found"
	}
	rm -rf "$tmp"
}

# Patch files in a directory, in order, without the cover letter.
patch_list() {
	(cd "$1" && ls -1 -- *.patch 2>/dev/null || true) | grep -vxF "$COVER" || true
}

series_files() { grep -vE '^[[:space:]]*(#|$)' "$kdir/series" || true; }

cmd_export() {
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
		die "$tree has uncommitted changes; commit them first"
	rm -f "$kdir"/patches/*.patch
	mkdir -p "$kdir/patches"
	fmt "$kdir/patches"
	cover "$kdir/patches"
	{
		sed -n '/^#/p' "$kdir/series"
		patch_list "$kdir/patches"
	} >"$kdir/series.new"
	mv "$kdir/series.new" "$kdir/series"
	echo "series: exported $(series_files | wc -l) patches to kernel/patches"
	[ ! -f "$kdir/patches/$COVER" ] || echo "series: wrote patches/$COVER"
}

cmd_matches() {
	local tmp rc=0
	tmp=$(mktemp -d)
	fmt "$tmp"
	cover "$tmp"
	diff -r -q "$tmp" "$kdir/patches" --exclude=.gitkeep >/dev/null || rc=1
	diff <(patch_list "$tmp") <(series_files) >/dev/null || rc=1
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
