#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of make demo on the patched kernel: migbench under each
# migration copy engine, rows appended to CSV with the engine as label.
#   bench/engines.sh CSV SPEC... (SPEC: cpu | mtcopy-N), MIGBENCH_ARGS extra
. "$(dirname "$0")/../tests/vm/lib/engines.sh"
set -eu
csv=$1
shift
echo all >$MO/reasons
for spec in "$@"; do
	mo_select "$spec"
	label=$spec
	[ "$spec" != cpu ] && label=${spec}T
	echo "== engine $(cat $MO/engine) (mtcopy threads: $(cat $MTCOPY/threads 2>/dev/null || echo -))"
	# shellcheck disable=SC2086
	"$TOP/tools/migbench/migbench" --label "$label" --csv "$csv" \
		--tables limit,a,b,first ${MIGBENCH_ARGS:-}
	echo "stats: $(mo_stats)"
done
echo cpu >$MO/engine
