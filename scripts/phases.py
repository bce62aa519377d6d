#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise bench/phases.sh rows: per folio size and engine, the
median time per move spent in each phase of migrate_pages_batch() (from
trace event mm_migrate_batch), with the spread (min-max) over repetitions,
and the copy bandwidth against the memcpy limit measured beside it.

    phases.py CSV [--md OUT] [--meta KEY=VALUE ...]
"""
import argparse
import collections
import csv
import statistics
import sys

PHASES = ("unmap_ns", "flush_ns", "copy_ns", "move_ns")
SIZE_NAMES = {4096: "4K", 65536: "64K", 2097152: "2M"}


def fmt_ms(values):
    med = statistics.median(values)
    return f"{med / 1e6:.2f} ({min(values) / 1e6:.2f}-{max(values) / 1e6:.2f})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--md")
    ap.add_argument("--meta", action="append", default=[])
    args = ap.parse_args()

    rows = list(csv.DictReader(open(args.csv)))
    if not rows:
        sys.exit("phases: no rows")
    by = collections.defaultdict(list)
    for r in rows:
        by[(int(r["size"]), r["engine"])].append(r)
    engines = list(dict.fromkeys(r["engine"] for r in rows))
    sizes = sorted({int(r["size"]) for r in rows})

    out = ["# Migration time by phase (trace event mm_migrate_batch)", ""]
    out += [f"- {m.replace('=', ': ', 1)}" for m in args.meta]
    out += ["",
            "Milliseconds per move, median (min-max) over repetitions. "
            "unmap includes allocating the destinations; move includes the "
            "copy of every folio not copied ahead (all of them for cpu).",
            ""]
    for size in sizes:
        name = SIZE_NAMES.get(size, f"{size}B")
        out += [f"## {name} folios", "",
                "| engine | reps | batches/move | unmap | TLB flush | copy ahead | move | total | copy GB/s | memcpy GB/s | copy / memcpy |",
                "|---|---|---|---|---|---|---|---|---|---|---|"]
        base_move = {}
        for r in by.get((size, "mtcopy-1"), []):
            base_move[r["rep"]] = int(r["move_ns"])
        for e in engines:
            rs = by.get((size, e), [])
            if not rs:
                continue
            ph = {p: [int(r[p]) for r in rs] for p in PHASES}
            total = [sum(int(r[p]) for p in PHASES) for r in rs]
            nbytes = [int(r["folios"]) * size for r in rs]
            memcpy = [float(r["memcpy_gbps"]) for r in rs if r["memcpy_gbps"]]
            if e == "cpu":
                # The vanilla path copies inside the move phase: its copy
                # is what the move phase takes beyond mtcopy-1's, whose
                # move phase copies nothing, in the same repetition.
                copy = [int(r["move_ns"]) - base_move[r["rep"]]
                        for r in rs if r["rep"] in base_move]
                note = " (est.)"
            else:
                copy = ph["copy_ns"]
                note = ""
            gbps = [b / c for b, c in zip(nbytes, copy) if c > 0]
            ratio = [g / m for g, m in zip(gbps, memcpy) if m > 0]
            cells = [e, str(len(rs)),
                     f"{statistics.median(int(r['batches']) for r in rs):.0f}"]
            cells += [fmt_ms(ph[p]) for p in PHASES]
            cells.append(fmt_ms(total))
            cells.append(f"{statistics.median(gbps):.2f}{note}" if gbps else "-")
            cells.append(f"{statistics.median(memcpy):.2f}" if memcpy else "-")
            cells.append(f"{statistics.median(ratio):.2f}" if ratio else "-")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    text = "\n".join(out)
    print(text)
    if args.md:
        with open(args.md, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
