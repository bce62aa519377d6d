#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Builds in configs the test kernel does not have, each compiled out of
# tree against the built test kernel with one option undefined after
# kconfig.h (an -include of "#undef"); a build error or a warning fails
# it. KTAP on stdout.
#   - mtcopy and dcbm without CONFIG_KUNIT: most production configs have
#     it off, VISIBLE_IF_KUNIT then makes the tested functions static,
#     and a header declaring them unconditionally breaks the build;
#   - mm/migrate_tiering.c without CONFIG_CPUSETS (cpuset.h then lacks
#     cpuset_node_allowed()) and without CONFIG_MIGRATE_EXCHANGE (what
#     only the exchange uses must not be left unused: the test config
#     sets CONFIG_WERROR). Compiled only, as built-in code: not linked;
#   - mm/ksm_offload.c (the KSM batch engines) without CONFIG_KUNIT and
#     without CONFIG_FAIL_KSM_ENGINE, which the test config sets.
#   config-variants.sh [KBUILD_DIR] [TREE]  (build/kbuild-test, build/linux)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kbuild=${1:-$top/build/kbuild-test}
tree=${2:-$top/build/linux}
# WHAT OPTION: a module directory under drivers/migrate_offload/, or an
# mm/ file, built without the option
variants=("mtcopy CONFIG_KUNIT" "dcbm CONFIG_KUNIT"
	"mm/migrate_tiering.c CONFIG_CPUSETS" "mm/migrate_tiering.c CONFIG_MIGRATE_EXCHANGE"
	"mm/ksm_offload.c CONFIG_KUNIT" "mm/ksm_offload.c CONFIG_FAIL_KSM_ENGINE")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "KTAP version 1"
echo "1..${#variants[@]}"
n=0
for v in "${variants[@]}"; do
	read -r what opt <<<"$v"
	n=$((n + 1))
	d=$work/$n
	mkdir -p "$d"
	printf '#undef %s\n#undef %s_MODULE\n' "$opt" "$opt" >"$d/undef.h"
	case $what in
	mm/*.c)
		obj=$(basename "$what" .c).o
		cp "$tree/$what" "$d/"
		# built in, not a module: no -DMODULE (initcalls stay initcalls)
		printf 'ccflags-y += -I%s/mm -include %s/undef.h -UMODULE\nobj-m := %s\n' \
			"$tree" "$d" "$obj" >"$d/Kbuild"
		target=$obj name="$what builds without $opt"
		;;
	*)
		cp "$tree/drivers/migrate_offload/$what/"*.[ch] "$d/"
		rm -f "$d/"*_kunit.c
		printf 'ccflags-y += -include %s/undef.h\nobj-m := %s.o\n' "$d" "$what" >"$d/Kbuild"
		target=modules name="$what builds without $opt"
		;;
	esac
	if make -s -C "$kbuild" M="$d" CC="ccache gcc" "$target" >"$d/log" 2>&1 &&
		! grep -q 'warning:' "$d/log"; then
		echo "ok $n $name"
	else
		sed 's/^/# /' "$d/log" | head -20
		echo "not ok $n $name"
	fi
done
