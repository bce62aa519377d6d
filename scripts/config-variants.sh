#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tiering code must build in configs the test kernel does not have:
# without CONFIG_CPUSETS (cpuset.h then lacks cpuset_node_allowed()) and
# without CONFIG_MIGRATE_EXCHANGE (what only the exchange uses must not be
# left unused: the test config sets CONFIG_WERROR). Each variant compiles
# mm/migrate_tiering.c alone, out of tree against the built test kernel,
# with the option undefined after kconfig.h (an -include of "#undef"), as
# nokunit-build.sh does for CONFIG_KUNIT; a warning fails it. Compiles
# only: the object is not linked. KTAP on stdout.
#   config-variants.sh [KBUILD_DIR] [TREE]  (build/kbuild-test, build/linux)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kbuild=${1:-$top/build/kbuild-test}
tree=${2:-$top/build/linux}
variants=(CONFIG_CPUSETS CONFIG_MIGRATE_EXCHANGE)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "KTAP version 1"
echo "1..${#variants[@]}"
n=0
for v in "${variants[@]}"; do
	n=$((n + 1))
	d=$work/$v
	mkdir -p "$d"
	printf '#undef %s\n#undef %s_MODULE\n' "$v" "$v" >"$d/undef.h"
	cp "$tree/mm/migrate_tiering.c" "$d/"
	# built in, not a module: no -DMODULE (its initcalls stay initcalls)
	printf 'ccflags-y += -I%s/mm -include %s/undef.h -UMODULE\nobj-m := migrate_tiering.o\n' \
		"$tree" "$d" >"$d/Kbuild"
	if make -s -C "$kbuild" M="$d" CC="ccache gcc" migrate_tiering.o >"$d/log" 2>&1 &&
		! grep -q 'warning:' "$d/log"; then
		echo "ok $n mm/migrate_tiering.c builds without $v"
	else
		sed 's/^/# /' "$d/log" | head -20
		echo "not ok $n mm/migrate_tiering.c builds without $v"
	fi
done
