#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install everything memaccel needs on a fresh Debian 12 machine. Idempotent:
# a second run with everything present does no network access and takes
# well under a second.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# MEMACCEL_BASE: another BASE file (tests). MEMACCEL_SETUP_CHECK_ONLY=1:
# report what is missing, install nothing.
base_file=${MEMACCEL_BASE:-$top/kernel/BASE}
# shellcheck source=../kernel/BASE
. "$base_file"
check_only=${MEMACCEL_SETUP_CHECK_ONLY:-0}

APT_PKGS=(
	# kernel build
	bc bison flex libelf-dev libssl-dev dwarves cpio kmod rsync xz-utils zstd
	ccache perl git make gcc
	# checkpatch's SPDX check (scripts/spdxcheck.py, run by Debian's python3)
	python3-ply python3-git
	# the harness's own Python packages live in a venv (PEP 668)
	python3-venv
	# VM
	qemu-system-x86 busybox-static
	# lint (make lint)
	shellcheck
	# tools and selftests
	libnuma-dev numactl libcap-dev libmount-dev
)

die() { echo "setup: $*" >&2; exit 1; }

apt_install() {
	local log=${TMPDIR:-/tmp}/memaccel-apt.log
	echo "setup: installing Debian packages: $*"
	if [ -z "${apt_updated:-}" ]; then
		apt-get update -q >/dev/null 2>&1 || echo "setup: warning: apt-get update failed" >&2
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >"$log" 2>&1 && return 0
	tail -5 "$log" >&2
	echo "setup: apt-get install failed (log: $log)" >&2
	return 1
}

apt_missing=()
for name in "${APT_PKGS[@]}"; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$name" 2>/dev/null)" = installed ] ||
		apt_missing+=("$name")
done
if [ "${#apt_missing[@]}" -gt 0 ]; then
	[ "$check_only" = 1 ] && die "missing Debian packages: ${apt_missing[*]}"
	apt_install "${apt_missing[@]}" || die "cannot install the build dependencies"
fi
# The pinned kernel source, at exactly the version in BASE; if the install
# fails, the check below says what is there and what to do.
have=$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$PACKAGE" 2>/dev/null || true)
if [ "$have" != "installed $VERSION" ] && [ "$check_only" != 1 ]; then
	apt_install "$PACKAGE=$VERSION" || true
fi

# The pinned kernel source: exact version and tarball checksum.
have=$(dpkg-query -W -f='${Version}' "$PACKAGE" 2>/dev/null || echo none)
if [ "$have" != "$VERSION" ]; then
	die "$PACKAGE: installed version is '$have', $base_file expects '$VERSION'.
  Install it with: apt-get install $PACKAGE=$VERSION
  If the registry no longer serves it, update kernel/BASE (VERSION and SHA256)
  to a version it serves and re-export the series against it."
fi
[ -f "$TARBALL" ] || die "$TARBALL missing although $PACKAGE $VERSION is installed; reinstall it: apt-get install --reinstall $PACKAGE=$VERSION"
stamp="$top/build/.base-sha256-ok"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$SHA256 $(stat -c %Y "$TARBALL")" ]; then
	sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
	[ "$sum" = "$SHA256" ] || die "$TARBALL: sha256 is $sum, kernel/BASE expects $SHA256.
  The package was rebuilt or the file was changed; reinstall with
  apt-get install --reinstall $PACKAGE=$VERSION, or update kernel/BASE."
	mkdir -p "$top/build"
	echo "$SHA256 $(stat -c %Y "$TARBALL")" >"$stamp"
fi

# Python packages, pinned in requirements.txt, in a venv under build/:
# Debian 12's python3 is "externally managed" (PEP 668) and refuses a
# system-wide pip install. Every script puts build/venv/bin first on PATH
# (scripts/env.sh, the Makefile, vm-run).
venv=${MEMACCEL_VENV:-$top/build/venv}
py=$venv/bin/python3
# A venv whose creation stopped half-way (no pip) is made again.
if [ ! -x "$py" ] || ! "$py" -m pip --version >/dev/null 2>&1; then
	[ "$check_only" = 1 ] && die "no Python venv at $venv (run scripts/setup.sh)"
	echo "setup: creating the Python venv $venv"
	# Debian's interpreter, whatever python3 is first on PATH: the venv
	# must not depend on a user's pyenv or conda.
	"${MEMACCEL_BASE_PYTHON:-/usr/bin/python3}" -m venv --clear "$venv" ||
		die "cannot create $venv (is python3-venv installed?)"
fi
pip_missing=()
while read -r req; do
	case "$req" in ''|'#'*) continue ;; esac
	name=${req%%==*}
	want=${req#*==}
	have=$("$py" -c "import importlib.metadata as m; print(m.version('$name'))" 2>/dev/null || true)
	[ "$have" = "$want" ] || pip_missing+=("$req")
done <"$top/requirements.txt"
if [ "${#pip_missing[@]}" -gt 0 ] && [ "$check_only" = 1 ]; then
	die "missing Python packages in $venv: ${pip_missing[*]}"
elif [ "${#pip_missing[@]}" -gt 0 ]; then
	echo "setup: installing Python packages into $venv: ${pip_missing[*]}"
	"$py" -m pip install -q --disable-pip-version-check "${pip_missing[@]}" ||
		die "pip install failed for: ${pip_missing[*]}"
fi
[ -x "$venv/bin/vng" ] || die "$venv/bin/vng missing after installing virtme-ng"
[ -x "$venv/bin/damo" ] || die "$venv/bin/damo missing after installing damo"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing"
exit 0
