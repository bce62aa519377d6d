#!/usr/bin/env bash
# diag3 plus a rep movsb/movsq probe on each CPU every 0.5 s
# (repprobe: gcc -O2 -static -o repprobe repprobe.c, beside this script)
out=$1; shift
mkdir -p "$out"
"$(dirname "$0")"/repprobe 0 > "$out/probe0.log" 2>&1 &
p0=$!
"$(dirname "$0")"/repprobe 1 > "$out/probe1.log" 2>&1 &
p1=$!
"$(dirname "$0")"/diag3.sh "$out" "$@"
kill $p0 $p1
