# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared start of slowhelper-guest.sh and ab34-guest.sh: sourced with
# REPO OLD_KO NEW_KO CSV as $1..$4; enters REPO, empties CSV, holds the
# 2 MB placement for the run and offloads every reason.
# shellcheck disable=SC2034 # old, new and csv are the sourcing script's
repo=$1 old=$2 new=$3 csv=$4
cd "$repo" || exit 1
. tests/vm/lib/engines.sh
. bench/placement.sh
rm -f "$csv"
trap placement_release EXIT
placement_hold
echo all >$MO/reasons
