#!/usr/bin/env bash
# One bench/tiering.sh per run, each with a trace of the migration PTEs
# (set/remove_migration_pte: source and destination frames of every page
# moved) and mm_migrate_batch, to test whether slow runs copy pairs whose
# frame numbers differ by a multiple of QEMU's TLB size
#   diag5.sh OUTDIR RUNS CONFIG
out=$1 runs=$2 cfg=$3
mkdir -p "$out"
inst=/sys/kernel/tracing/instances/diag5
mkdir -p "$inst"
echo 65536 > "$inst/buffer_size_kb"
for e in migrate/set_migration_pte migrate/remove_migration_pte migrate/mm_migrate_batch; do
	echo 1 > "$inst/events/$e/enable"
done
for i in $(seq "$runs"); do
	echo > "$inst/trace"
	echo 1 > "$inst/tracing_on"
	"$(dirname "$0")/diag3.sh" "$out/r$i" \
		bench/tiering.sh "$out/r$i" "$cfg"
	echo 0 > "$inst/tracing_on"
	grep -E 'kpromoted0-' "$inst/trace" | gzip > "$out/r$i/ptes.trace.gz"
	cat "$inst/per_cpu/cpu0/stats" "$inst/per_cpu/cpu1/stats" > "$out/r$i/trace-stats.txt"
done
