#!/usr/bin/env bash
# when kpromoted0 is busy, sample its stack (/proc/PID/stack) and
# record it with perf (cpu-clock, call graphs)
out=$1; shift
mkdir -p "$out"
(
last=
n=0
while :; do
	p=$(pgrep '^kpromoted0$' | head -1)
	if [ -n "$p" ]; then
		s=$(cut -d' ' -f14,15 /proc/"$p"/stat 2>/dev/null)
		t=$(( ${s% *} + ${s#* } ))
		if [ -n "$last" ] && [ $((t - last)) -ge 50 ]; then
			echo "== $(cut -d' ' -f1 /proc/uptime) kpromoted0 +$((t - last))"
			for _ in $(seq 40); do
				cat /proc/"$p"/stack; echo "--"
				sleep 0.05
			done
			if [ $n -lt 3 ]; then
				n=$((n + 1))
				timeout 20 perf record -q -e cpu-clock -F 499 -g -p "$p" \
					-o "$out/perf$n.data" -- sleep 4 >/dev/null 2>&1
				perf report -q -i "$out/perf$n.data" --stdio --no-children \
					-g caller,0.5,callee --percent-limit 2 \
					> "$out/perf$n.txt" 2>&1
			fi
		fi
		last=$t
	fi
	sleep 1
done
) >"$out/busy3.log" 2>&1 &
sp=$!
"$@"
kill "$sp"
dmesg >"$out/dmesg.txt"
