#!/usr/bin/env bash
# untracked: when kpromoted0 is busy, dump the running CPUs' stacks (sysrq l)
out=$1; shift
mkdir -p "$out"
echo 1 >/proc/sys/kernel/sysrq
(
last=
while :; do
	p=$(pgrep '^kpromoted0$' | head -1)
	if [ -n "$p" ]; then
		s=$(cut -d' ' -f14,15 /proc/"$p"/stat 2>/dev/null)
		t=$(( ${s% *} + ${s#* } ))
		if [ -n "$last" ] && [ $((t - last)) -ge 50 ]; then
			echo "== $(cut -d' ' -f1 /proc/uptime) kpromoted0 +$((t - last))"
			echo l >/proc/sysrq-trigger
		fi
		last=$t
	fi
	sleep 1
done
) >"$out/busy2.log" 2>&1 &
sp=$!
"$@"
kill "$sp"
dmesg >"$out/dmesg.txt"
