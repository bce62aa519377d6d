#!/bin/bash
# Engine benchmark (issue 15, session 14): one boot, wall clock
out=$1
cd /work/main || exit 4
KSMBENCH_RUNS=5 KSMBENCH_SIZES="1 16 256" KSMBENCH_ENGINES="cpu mt swaccel" KSMBENCH_ALGO=crc32c \
	bench/ksm-sets.sh "$out/crc32c" mixed
KSMBENCH_RUNS=5 KSMBENCH_SIZES="1 16 256" KSMBENCH_ENGINES="cpu mt" KSMBENCH_ALGO=xxhash \
	bench/ksm-sets.sh "$out/xxhash" mixed
echo engbench-done
