#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of make demo: runs CMD... while "migbench --hold-placement"
# holds the 2 MB blocks that alias in QEMU TCG's TLB (bench/placement.sh),
# and stops the holder when CMD ends.
#   bench/placed.sh CMD...
. "$(dirname "$0")/../tests/vm/lib/engines.sh"
. "$(dirname "$0")/placement.sh"
set -eu
trap placement_release EXIT
placement_hold
"$@"
