#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables and a plot from bench/tiering.sh's output directory.

    bench/tiering-report.py OUTDIR [--png FILE] [--title TEXT] [--meta K=V]...

Prints a markdown table, one row per configuration: medians over the runs
(min-max in brackets) of the time to 90 % residency after a shift (every
shift of every run; "never" counts as the period, and how many never got
there is given), the residency over the second half of each period, the
pages tierbench saw move and move again within a period (wasted), the
moves against the hot set of the moment (misplaced: up while not in the
hot window, down while in it; "-" for runs of a tierbench without it), the
kernel's counters over the run, the CPU time of the kernel threads that
move pages (all of them, and kpromoted's alone: "-" for runs before
bench/tiering.sh split it), and the guest's memcpy() rate beside the
samples (the median of a run's samples; "-" for a tierbench without it),
against which a run's kernel-thread CPU time is to be read. With --png, residency over time, the median of the runs at
each sample, one line per configuration.

Runs that left a trace (OUTDIR/CONFIG-RUN.trace: mm_tier_policy at the
end of each policy interval, tierbench's samples as markers) also get a
second table: per shift, the policy intervals of node 0 that ended between
the shift and the first sample at 90 % or more, and what the first of
them found hot and moved.
"""
import argparse
import csv
import os
import re
import statistics
import sys


def med(xs, fmt="{:.0f}"):
    if not xs:
        return "-"
    m = statistics.median(xs)
    if len(xs) == 1 or min(xs) == max(xs):
        return fmt.format(m)
    return f"{fmt.format(m)} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"


def read_run(path):
    """Rows (t, shift, residency) and the summary of one tierbench CSV."""
    rows, summary, period = [], {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("# tierbench"):
                m = re.search(r"period ([0-9.]+) s", line)
                period = float(m.group(1)) if m else None
            elif line.startswith("summary"):
                summary = dict(kv.split("=", 1) for kv in line.split()[1:])
            elif line and line[0].isdigit():
                t, shift, res, *_ = line.split(",")
                rows.append((float(t), int(shift), float(res)))
    return rows, summary, period


TRACE_RE = re.compile(r"\s(\d+\.\d+): (\w+): (.*)$")


def read_trace(path):
    """(seconds, event, {field: value}) for every event of a run's trace."""
    events = []
    with open(path) as f:
        for line in f:
            m = TRACE_RE.search(line.rstrip())
            if not m:
                continue
            ts, ev, rest = float(m.group(1)), m.group(2), m.group(3)
            if ev == "tracing_mark_write":
                if not rest.startswith("tierbench "):
                    continue
                rest = rest[len("tierbench "):]
            fields = dict(kv.split("=", 1) for kv in rest.split() if "=" in kv)
            events.append((ts, ev, fields))
    return events


def intervals_to_90(events):
    """Per shift: (policy intervals of node 0 ended after the shift's first
    sample and by its first sample at >= 90 %, or None if none was, and the
    (hot, promoted) of those intervals)."""
    first, at90 = {}, {}
    for ts, ev, f in events:
        if ev != "tracing_mark_write" or "shift" not in f:
            continue
        n = int(f["shift"])
        first.setdefault(n, ts)
        if n not in at90 and float(f["residency"]) >= 0.9:
            at90[n] = ts
    policy = [(ts, f) for ts, ev, f in events
              if ev == "mm_tier_policy" and f.get("nid") == "0"]
    out = {}
    for n, t0 in sorted(first.items()):
        if n not in at90:
            out[n] = (None, [])
            continue
        iv = [(int(f["hot"]), int(f["promoted"])) for ts, f in policy
              if t0 < ts <= at90[n]]
        out[n] = (len(iv), iv)
    return out


def interval_table(outdir, runs, configs):
    rowsout = []
    for c in configs:
        counts, never, firsts = [], 0, []
        for r in runs:
            if r["config"] != c:
                continue
            path = os.path.join(outdir, f"{c}-{r['run']}.trace")
            if not os.path.exists(path):
                continue
            ev = read_trace(path)
            if not any(e == "mm_tier_policy" for _, e, _ in ev):
                continue
            for n, (k, iv) in intervals_to_90(ev).items():
                if k is None:
                    never += 1
                    continue
                counts.append(k)
                if iv:
                    firsts.append(f"{iv[0][0]}/{iv[0][1]}")
        if counts or never:
            rowsout.append((c, counts, never, firsts))
    if not rowsout:
        return
    print()
    print("| configuration | shifts | policy intervals to 90 % | never | "
          "first interval's hot/promoted pages |")
    print("|---|---|---|---|---|")
    for c, counts, never, firsts in rowsout:
        print(f"| {c} | {len(counts) + never} | {med(counts)} | {never} | "
              f"{', '.join(firsts) or '-'} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--png")
    ap.add_argument("--title", default="")
    ap.add_argument("--meta", action="append", default=[],
                    help="KEY=VALUE, printed above the table")
    a = ap.parse_args()
    for m in a.meta:
        k, _, v = m.partition("=")
        print(f"- {k}: {v}")
    if a.meta:
        print()

    with open(os.path.join(a.outdir, "runs.tsv")) as f:
        runs = list(csv.DictReader(f, delimiter="\t"))
    if not runs:
        sys.exit("no runs in " + a.outdir)
    configs = list(dict.fromkeys(r["config"] for r in runs))
    cols = ["T90 s", "never", "late residency", "moved", "wasted", "misplaced",
            "pgpromote_success", "pgdemote", "pgexchange_success",
            "numa_hint_faults", "kthread CPU s", "kpromoted CPU s",
            "memcpy MB/s", "data"]
    print("| configuration | runs | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    series = {}
    for c in configs:
        rs = [r for r in runs if r["config"] == c]
        t90, never, late, moved, wasted, data = [], 0, [], [], [], set()
        misplaced, memcpy = [], []
        curves = []
        for r in rs:
            rows, s, period = read_run(os.path.join(a.outdir, f"{c}-{r['run']}.csv"))
            curves.append(rows)
            for v in s.get("t90", "").split("/"):
                if v == "-":
                    never += 1
                    t90.append(period or 0)
                elif v:
                    t90.append(float(v))
            if "residency_late" in s:
                late.append(float(s["residency_late"]))
            moved.append(int(s.get("moved", 0)))
            wasted.append(int(s.get("wasted", 0)))
            if "misplaced" in s:
                misplaced.append(int(s["misplaced"]))
            if "memcpy_MBps" in s:
                memcpy.append(float(s["memcpy_MBps"]))
            data.add(s.get("data", "?") + (" exit" + s["exit"] if "exit" in s else ""))
        series[c] = curves

        def k(name):
            return [int(r[name]) for r in rs]
        demote = [int(r["pgdemote_kswapd"]) + int(r["pgdemote_direct"]) for r in rs]
        kprom = [float(m.group(1)) for m in
                 (re.search(r"\bcpu_kpromoted=([0-9.]+)", r["summary"]) for r in rs) if m]
        print(f"| {c} | {len(rs)} | {med(t90, '{:.1f}')} | {never} of {len(t90)} | "
              f"{med(late, '{:.2f}')} | {med(moved)} | {med(wasted)} | {med(misplaced)} | "
              f"{med(k('pgpromote_success'))} | {med(demote)} | "
              f"{med(k('pgexchange_success'))} | {med(k('numa_hint_faults'))} | "
              f"{med([float(r['kthread_s']) for r in rs], '{:.1f}')} | "
              f"{med(kprom, '{:.1f}')} | {med(memcpy)} | "
              f"{', '.join(sorted(data))} |")

    interval_table(a.outdir, runs, configs)

    if a.png:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(9, 4.5))
        for c, curves in series.items():
            n = min(len(x) for x in curves)
            if not n:
                continue
            ts = [statistics.median(x[i][0] for x in curves) for i in range(n)]
            ys = [statistics.median(x[i][2] for x in curves) for i in range(n)]
            ax.plot(ts, ys, label=c, linewidth=1.2)
        ax.axhline(0.9, color="grey", linestyle=":", linewidth=0.8)
        ax.set_xlabel("time (s); the hot set moves every period")
        ax.set_ylabel("hot set on node 0 (share)")
        ax.set_ylim(0, 1.02)
        ax.set_title(a.title or "Hot-set residency on the fast tier")
        ax.legend(fontsize=8, loc="lower right")
        fig.tight_layout()
        fig.savefig(a.png, dpi=110)


if __name__ == "__main__":
    main()
