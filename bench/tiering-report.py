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
kernel's counters over the run and the CPU time of the kernel threads that
move pages. With --png, residency over time, the median of the runs at
each sample, one line per configuration.
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
            "numa_hint_faults", "kthread CPU s", "data"]
    print("| configuration | runs | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    series = {}
    for c in configs:
        rs = [r for r in runs if r["config"] == c]
        t90, never, late, moved, wasted, data = [], 0, [], [], [], set()
        misplaced = []
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
            data.add(s.get("data", "?") + (" exit" + s["exit"] if "exit" in s else ""))
        series[c] = curves

        def k(name):
            return [int(r[name]) for r in rs]
        demote = [int(r["pgdemote_kswapd"]) + int(r["pgdemote_direct"]) for r in rs]
        print(f"| {c} | {len(rs)} | {med(t90, '{:.1f}')} | {never} of {len(t90)} | "
              f"{med(late, '{:.2f}')} | {med(moved)} | {med(wasted)} | {med(misplaced)} | "
              f"{med(k('pgpromote_success'))} | {med(demote)} | "
              f"{med(k('pgexchange_success'))} | {med(k('numa_hint_faults'))} | "
              f"{med([float(r['kthread_s']) for r in rs], '{:.1f}')} | "
              f"{', '.join(sorted(data))} |")

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
