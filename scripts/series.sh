#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Series hygiene for build/linux <-> kernel/patches.
#   series.sh export   write kernel/patches and kernel/series from the tree,
#                      plus patches/0000-cover-letter.patch if
#                      kernel/cover-letter.txt exists (never listed in series)
#   series.sh matches  exit 0 if kernel/patches equals what the tree exports
#   series.sh check    the series applies to the pristine base, the export
#                      matches the tree, and every patch is checkpatch --strict
#                      clean; numbered TAP results
#   series.sh tap      check as a complete KTAP stream (make test's series stage)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${KTREE:-$top/build/linux}
kdir=${KSERIES:-$top/kernel}   # where series and patches/ live
BASE_TAG=memaccel-base
export GIT_AUTHOR_NAME="memaccel" GIT_AUTHOR_EMAIL="memaccel@localhost"
export GIT_COMMITTER_NAME="memaccel" GIT_COMMITTER_EMAIL="memaccel@localhost"

die() { echo "series: $*" >&2; exit 1; }
need_tree() {
	[ -e "$tree/.git" ] || die "$tree is not a kernel tree; run 'make kernel-tree'"
}

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
	need_tree
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
	need_tree
	tmp=$(mktemp -d)
	fmt "$tmp"
	cover "$tmp"
	diff -r -q "$tmp" "$kdir/patches" --exclude=.gitkeep >/dev/null || rc=1
	diff <(patch_list "$tmp") <(series_files) >/dev/null || rc=1
	rm -rf "$tmp"
	return $rc
}

# KTAP result lines: every check is numbered, so scripts/ktap.py counts it.
n_res=0
result() { # ok|"not ok" description
	n_res=$((n_res + 1))
	echo "$1 $n_res - $2"
}

cmd_check() {
	local fail=0 tmp wt f
	need_tree
	mapfile -t files < <(series_files | sed "s|^|$kdir/patches/|")
	# apply + match + one checkpatch per patch
	echo "1..$((2 + ${#files[@]}))"
	# 1. Applies cleanly to the pristine base, in a scratch worktree.
	tmp=$(mktemp -d)
	wt="$tmp/wt"
	git -C "$tree" worktree add -q --detach "$wt" "$BASE_TAG"
	if [ "${#files[@]}" -eq 0 ]; then
		result ok "series is empty"
	elif git -C "$wt" am -q "${files[@]}" >"$tmp/am.log" 2>&1; then
		result ok "series applies to the pristine base (${#files[@]} patches)"
	else
		sed 's/^/# /' "$tmp/am.log"
		result "not ok" "series does not apply to the pristine base"
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		fail=1
	fi
	git -C "$tree" worktree remove --force "$wt"
	rm -rf "$tmp"
	# 2. Exported files match the tree.
	if cmd_matches; then
		result ok "kernel/patches matches $tree"
	else
		result "not ok" "kernel/patches differs from $tree (run 'make export-patches')"
		fail=1
	fi
	# 3. checkpatch --strict on every patch, two at a time (one per core
	# here), results in series order.
	# spdxcheck.py needs the Debian python3 (ply, GitPython)
	tmp=$(mktemp -d)
	# shellcheck disable=SC2016 # expanded by the sh that xargs runs
	series_files | PATH=/usr/bin:$PATH xargs -P 2 -I{} sh -c \
		'cd "$1" && ./scripts/checkpatch.pl --strict --quiet --no-summary "$2/patches/$3" >"$4/$3.log" 2>&1; echo $? >"$4/$3.rc"' \
		checkpatch "$tree" "$kdir" {} "$tmp"
	for f in $(series_files); do
		if [ "$(cat "$tmp/$f.rc" 2>/dev/null)" = 0 ]; then
			result ok "checkpatch --strict $f"
		else
			sed 's/^/#   /' "$tmp/$f.log" 2>/dev/null || echo "#   checkpatch did not run"
			result "not ok" "checkpatch --strict $f"
			fail=1
		fi
	done
	rm -rf "$tmp"
	return $fail
}

# The series stage of make test: a complete KTAP stream whatever happens.
# A check that dies before its plan (no tree, a broken base tag), or exits
# non-zero without a failed result, still ends as one failed test.
cmd_tap() {
	local out rc=0
	out=$( (cmd_check) 2>&1) || rc=$?
	echo "KTAP version 1"
	if ! grep -q '^1\.\.' <<<"$out"; then
		echo "1..1"
		awk '{print "# " $0}' <<<"$out"
		echo "not ok 1 - series check did not run (exit $rc)"
	else
		echo "$out"
		if [ $rc != 0 ] && ! grep -q '^not ok ' <<<"$out"; then
			echo "not ok $(($(grep -c '^ok ' <<<"$out") + 1)) - series check exited $rc"
		fi
	fi
	return $rc
}

case "${1:-}" in
export) cmd_export ;;
matches) cmd_matches ;;
check) cmd_check ;;
tap) cmd_tap ;;
*) die "usage: series.sh export|matches|check|tap" ;;
esac
