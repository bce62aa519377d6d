#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs shellcheck on every shell script and ruff on every Python file of the
# repository (tracked files; .shellcheckrc holds shellcheck's settings, ruff
# runs with its defaults).
# Exit 0 only if both are clean.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=env.sh
. "$top/scripts/env.sh"
cd "$top" || exit
rc=0
mapfile -t sh < <(git ls-files | while read -r f; do
	case "$f" in
	*.sh) echo "$f" ;;
	kernel/*|*.patch|*.md|*.txt|*.py|*.c|*.h) ;;
	*) [ -f "$f" ] && head -c 64 "$f" | head -1 | grep -q '^#!.*\(ba\)\?sh$' && echo "$f" ;;
	esac
done)
mapfile -t py < <(git ls-files '*.py' scripts/vm-run tools/memaccelctl/memaccelctl)
shellcheck "${sh[@]}" || rc=1
ruff check --no-cache -q "${py[@]}" || rc=1
[ $rc = 0 ] && echo "lint: ${#sh[@]} shell scripts and ${#py[@]} Python files clean"
exit $rc
