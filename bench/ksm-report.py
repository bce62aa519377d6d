#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The KSM benchmark's table: bench/ksm-report.py OUTDIR [--ref BATCH].

Reads OUTDIR/runs.txt (bench/ksm.sh) and prints, per batch engine (when
the runs name one) and batch size, the median and the min-max of each
measure over the runs, and the ratio of the median dedup per ksmd
CPU-second to that of batch size --ref (default 1) with the same engine.
Dedup per KSM CPU-second counts the engine's threads (mt's workers,
swaccel's device) with ksmd. Tree lookups per compare are those of the
batches' level walks: a search of one page at a time makes one lookup
per compare, and batch size 1 makes no walk ("-")."""
import argparse
import os
import statistics
import sys

COLS = [
    ("dedup_per_cpu_s", "pages merged / ksmd CPU s", "{:.0f}"),
    ("ksmd_cpu_s", "ksmd CPU s", "{:.2f}"),
    ("helper_cpu_s", "engine threads CPU s", "{:.2f}"),
    ("dedup_per_total_cpu_s", "pages merged / KSM CPU s", "{:.0f}"),
    ("converge_s", "time to converge s", "{:.2f}"),
    ("ns_per_page", "ksmd ns / scanned page", "{:.0f}"),
    ("scanned", "pages scanned", "{:.0f}"),
]


def parse(path):
    rows = []
    with open(path) as f:
        for line in f:
            if not line.startswith("ksmbench "):
                continue
            kv = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
            rows.append(kv)
    return rows


def num(v):
    try:
        return float(v)
    except ValueError:
        return None


def per_batch(r):
    """Pages a batch held on average in one run, None without batches"""
    n, p = num(r.get("batches", "-")), num(r.get("batch_pages", "-"))
    return p / n if n and p is not None else None


def per_compare(r):
    """Tree lookups per compare of the batches' level walks in one run:
    1 for searches of one page at a time, None without walks"""
    c, lk = num(r.get("batch_walk_compares", "-")), num(r.get("batch_walk_lookups", "-"))
    return lk / c if c and lk is not None else None


def cell(vals, fmt):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "-"
    m = statistics.median(vals)
    if len(vals) == 1:
        return fmt.format(m)
    return f"{fmt.format(m)} ({fmt.format(min(vals))}-{fmt.format(max(vals))})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--ref", default="1")
    a = ap.parse_args()
    rows = parse(os.path.join(a.outdir, "runs.txt"))
    if not rows:
        sys.exit(f"ksm-report: no runs in {a.outdir}/runs.txt")
    env = os.path.join(a.outdir, "env.txt")
    if os.path.exists(env):
        with open(env) as f:
            for line in f:
                print(f"- {line.rstrip()}")
        print()
    engines = list(dict.fromkeys(r.get("engine", "-") for r in rows))
    named = engines != ["-"]
    keys = sorted({(r.get("engine", "-"), r["batch"]) for r in rows},
                  key=lambda k: (engines.index(k[0]), int(k[1])))
    by = {k: [r for r in rows if (r.get("engine", "-"), r["batch"]) == k]
          for k in keys}
    med = {}
    for k, rs in by.items():
        dv = [v for v in (num(r.get("dedup_per_cpu_s", "-")) for r in rs) if v is not None]
        med[k] = statistics.median(dv) if dv else None
    print(("| engine " if named else "") + "| batch_size | runs | converged | "
          + " | ".join(c[1] for c in COLS)
          + f" | dedup/CPU vs {a.ref} | batches | pages / batch | deferred | joined | serial"
          + " | tree lookups / compare |")
    print("|" + "---|" * (len(COLS) + 10 + named))
    for (e, b), rs in by.items():
        conv = sum(r.get("converged") == "1" for r in rs)
        cells = [cell([num(r.get(k, "-")) for r in rs], f) for k, _, f in COLS]
        extra = [cell([num(r.get(k, "-")) for r in rs], "{:.0f}")
                 for k in ("batches", "batch_deferred", "batch_joined", "batch_serial")]
        extra.insert(1, cell([per_batch(r) for r in rs], "{:.0f}"))
        extra.append(cell([per_compare(r) for r in rs], "{:.2f}"))
        ref = med.get((e, a.ref))
        m = med[(e, b)]
        ratio = f"{m / ref:.2f}x" if ref and m is not None else "-"
        print((f"| {e} " if named else "")
              + f"| {b} | {len(rs)} | {conv} of {len(rs)} | " + " | ".join(cells)
              + f" | {ratio} | " + " | ".join(extra) + " |")


if __name__ == "__main__":
    main()
