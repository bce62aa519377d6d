#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The engine modules must build without KUnit: most production configs
# have CONFIG_KUNIT=n, where VISIBLE_IF_KUNIT makes the tested functions
# static, and every config of this harness sets it. Builds mtcopy and
# dcbm out of tree against a built kernel with CONFIG_KUNIT undefined
# (an -include of "#undef CONFIG_KUNIT" after kconfig.h); KTAP on stdout.
#   nokunit-build.sh [KBUILD_DIR] [TREE]  (build/kbuild-test, build/linux)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kbuild=${1:-$top/build/kbuild-test}
tree=${2:-$top/build/linux}
mods=(mtcopy dcbm)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo '#undef CONFIG_KUNIT' >"$work/undef.h"
echo "KTAP version 1"
echo "1..${#mods[@]}"
n=0
for m in "${mods[@]}"; do
	n=$((n + 1))
	mkdir -p "$work/$m"
	cp "$tree/drivers/migrate_offload/$m/"*.[ch] "$work/$m/"
	rm -f "$work/$m/"*_kunit.c
	printf 'ccflags-y += -include %s/undef.h\nobj-m := %s.o\n' "$work" "$m" >"$work/$m/Kbuild"
	if make -s -C "$kbuild" M="$work/$m" CC="ccache gcc" modules >"$work/$m.log" 2>&1 &&
		! grep -q 'warning:' "$work/$m.log"; then
		echo "ok $n $m builds without CONFIG_KUNIT"
	else
		sed 's/^/# /' "$work/$m.log" | head -20
		echo "not ok $n $m builds without CONFIG_KUNIT"
	fi
done
