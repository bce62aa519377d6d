# SPDX-License-Identifier: GPL-2.0
# Sourced by every entry script: the harness's Python (pytest, matplotlib,
# virtme-ng's vng) comes from the venv that scripts/setup.sh creates.
# shellcheck shell=bash
MEMACCEL_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case ":$PATH:" in
*":${MEMACCEL_VENV:-$MEMACCEL_TOP/build/venv}/bin:"*) ;;
*) export PATH="${MEMACCEL_VENV:-$MEMACCEL_TOP/build/venv}/bin:$PATH" ;;
esac
