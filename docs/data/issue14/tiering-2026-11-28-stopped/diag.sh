#!/usr/bin/env bash
# untracked: sample busy page-moving kthreads once a second while the bench runs
out=$1; shift
mkdir -p "$out"
(
declare -A last
while :; do
	for p in $(pgrep '^(kpromoted|kdamond|kswapd|kcompactd)'); do
		s=$(cut -d' ' -f14,15 /proc/"$p"/stat 2>/dev/null) || continue
		t=$(( ${s% *} + ${s#* } ))
		d=$(( t - ${last[$p]:-$t} ))
		last[$p]=$t
		if [ "$d" -ge 30 ]; then
			echo "== $(cut -d' ' -f1 /proc/uptime) $(cat /proc/"$p"/comm) $p +$d ticks"
			cat /proc/"$p"/stack
		fi
	done
	sleep 1
done
) >"$out/busy.log" 2>&1 &
sp=$!
"$@"
kill "$sp"
