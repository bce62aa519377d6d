#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Configure a kernel build directory for the VM.
#   kconfig.sh FLAVOR [TREE]    FLAVOR: test (with debug.config) or bench
# Base: virtme-ng's defconfig (virtme-configkernel --defconfig), then the
# fragments in kernel/configs/ merged on top: vm.config (trim), guest.config
# (what the harness needs), debug.config in the test flavour, and, when TREE
# has the series applied (the vanilla benchmark tree has not),
# memaccel.config (the series' options) and, in the test flavour,
# memaccel-debug.config. Every line of every fragment but vm.config must
# hold in the result.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=env.sh
. "$top/scripts/env.sh"
flavor=${1:?usage: kconfig.sh test|bench [tree]}
tree=${2:-$top/build/linux}
out=${KBUILD_OUT:-$top/build/kbuild-$flavor}
cfgdir=$top/kernel/configs
case "$flavor" in
test) frags=("$cfgdir/vm.config" "$cfgdir/guest.config" "$cfgdir/debug.config") ;;
bench) frags=("$cfgdir/vm.config" "$cfgdir/guest.config") ;;
*) echo "kconfig: unknown flavour '$flavor' (test|bench)" >&2; exit 1 ;;
esac
if [ -f "$tree/mm/migrate_offload.c" ]; then
	frags+=("$cfgdir/memaccel.config")
	[ "$flavor" = test ] && frags+=("$cfgdir/memaccel-debug.config")
fi
mkdir -p "$out"
# The key covers the tree's commit too: the build's syncconfig silently
# drops options the checked-out Kconfig does not know, so a build at an
# earlier patch of the series must not leave its config to a later one.
key=$( (cat "${frags[@]}" "$top/kernel/BASE"; vng --version 2>&1
	git -C "$tree" rev-parse HEAD 2>/dev/null) | sha256sum | cut -d' ' -f1)
if [ -f "$out/.config" ] && [ "$(cat "$out/.memaccel-config" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
cd "$tree"
virtme-configkernel --defconfig "O=$out" >"$out/kconfig.log" 2>&1 ||
	{ tail -20 "$out/kconfig.log" >&2; exit 1; }
./scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null
make -s O="$out" olddefconfig
rc=0
for f in "${frags[@]}"; do
	strict=1
	[ "$(basename "$f")" = vm.config ] && strict=0
	# bisect-check builds the series patch by patch: options of later
	# patches do not exist yet.
	case "${MEMACCEL_PARTIAL_SERIES:-}:$(basename "$f")" in
	1:memaccel*.config) strict=0 ;;
	esac
	# shellcheck disable=SC2094 # $f is only read here; basename is not I/O
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) sym=${line%%=*}; want=$line ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}; want= ;;
		*) continue ;;
		esac
		have=$(grep -E "^($sym=|# $sym is not set)" "$out/.config" || true)
		case "$have" in "# "*) have= ;; esac
		if [ "$have" != "$want" ]; then
			if [ $strict = 1 ]; then
				echo "kconfig: $(basename "$f"): wanted '${want:-$sym unset}', got '${have:-unset}'" >&2
				rc=1
			fi
		fi
	done <"$f"
done
[ $rc = 0 ] || { echo "kconfig: required options did not survive olddefconfig (missing dependency?)" >&2; exit 1; }
echo "$key" >"$out/.memaccel-config"
echo "kconfig: $out/.config ($flavor)"
