#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise one boot of bench/mtcopy-state.sh (issue 12's diagnostic).

    mtcopy_trace.py OUTDIR

Prints, per round and engine: GB/s of each repetition (migbench table b,
4 x 2 MB); for each engine call, its time (mm_migrate_offload_copy) and,
for mtcopy, the helper's work (workqueue execute_start..end of
mtcopy_work): how long after the queueing it started, how long it ran,
and how many IPIs and TLB flushes reached the helper CPU meanwhile. Then
the tlbskew probe lines.
"""
import csv
import glob
import os
import re
import statistics
import sys

LINE = re.compile(r"^\s*(?P<task>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S+\s+"
                  r"(?P<ts>\d+\.\d+):\s+(?P<ev>\w+):\s*(?P<rest>.*)$")


def events(path):
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if m:
                yield (int(m["cpu"]), float(m["ts"]), m["ev"], m["rest"])


def helper_work(path):
    """[(queue_to_start_us, run_us, ipis, tlb_flushes)] for mtcopy_work."""
    queued, started, out = {}, {}, []
    noise = {}
    for cpu, ts, ev, rest in events(path):
        w = re.search(r"work struct[= ]([0-9a-f]+)", rest)
        if ev == "workqueue_queue_work" and "mtcopy_work" in rest and w:
            queued[w[1]] = ts
        elif ev == "workqueue_execute_start" and "mtcopy_work" in rest and w:
            started[w[1]] = (cpu, ts)
            noise[cpu] = [0, 0]
        elif ev == "workqueue_execute_end" and w and w[1] in started:
            c, t0 = started.pop(w[1])
            q = queued.pop(w[1], t0)
            ipi, tlb = noise.pop(c, [0, 0])
            out.append(((t0 - q) * 1e6, (ts - t0) * 1e6, ipi, tlb))
        elif cpu in noise:
            if ev == "tlb_flush":
                noise[cpu][1] += 1
        if ev.startswith("ipi_send"):
            for c in noise:
                if re.search(rf"cpu={c}\b|cpumask=.*\b{c}\b", rest):
                    noise[c][0] += 1
    return out


def engine_calls(path):
    return [int(m[1]) / 1e3 for _, _, ev, rest in events(path)
            if ev == "mm_migrate_offload_copy" and (m := re.search(r"\bns=(\d+)", rest))]


def batch_copy_us(path):
    """Per batch of mm_migrate_batch: (pages, us copying ahead + moving)."""
    out = []
    for _, _, ev, rest in events(path):
        if ev != "mm_migrate_batch":
            continue
        f = dict(re.findall(r"(\w+)=(\d+)", rest))
        out.append((int(f["pages"]), (int(f["copy_ns"]) + int(f["move_ns"])) / 1e3))
    return out


def med(v):
    return f"{statistics.median(v):.0f}" if v else "-"


def main(argv):
    d = argv[0]
    rows = {}
    with open(os.path.join(d, "state.csv")) as f:
        for r in csv.DictReader(f):
            if r["table"] == "b":
                rows.setdefault(r["label"], []).append(
                    float(r["moved_B"]) / float(r["wall_s"]) / 1e9)
    for label, gbps in rows.items():
        print(f"{label}: GB/s per repetition " + " ".join(f"{g:.3f}" for g in gbps))
    for t in sorted(glob.glob(os.path.join(d, "trace-*.txt"))):
        name = os.path.basename(t)[6:-4]
        calls = engine_calls(t)
        work = helper_work(t)
        batches = batch_copy_us(t)
        print(f"{name}: {len(calls)} engine calls, median {med(calls)} us", end="")
        if batches:
            per_mb = [us / (pages * 4096 / 2**20) for pages, us in batches if pages]
            print(f"; {len(batches)} batches, copy+move median {med(per_mb)} us per MB", end="")
        if work:
            print(f"; helper work: {len(work)}, start after median "
                  f"{med([w[0] for w in work])} us, runs median {med([w[1] for w in work])} us "
                  f"(max {max(w[1] for w in work):.0f}), IPIs to it {sum(w[2] for w in work)}, "
                  f"TLB flushes on it {sum(w[3] for w in work)}", end="")
        print()
    p = os.path.join(d, "tlbskew.txt")
    if os.path.exists(p):
        print(open(p).read(), end="")


if __name__ == "__main__":
    main(sys.argv[1:])
