#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The pages kpromoted0 moved, from diag5.sh's ptes.trace.gz: the source
frame from set_migration_pte (an x86-64 migration entry, whose offset is
stored inverted: bits 14 and up of ~pte << 5) and the destination frame
from remove_migration_pte (a present PTE: bits 12-51). Prints per trace
how many pairs differ by a multiple of 2^k pages (k = 9..12: QEMU's TLB
sizes, the aliasing of docs/benchmarks.md's issue 12 section), the move
phase's time per page from mm_migrate_batch, each page's time (from the
previous page's remove_migration_pte in the same batch to its own) and
the slowest pages with their frames."""
import gzip
import re
import sys

R = re.compile(r"\s(\d+\.\d+): (\w+): (.*)$")
M64 = 2**64 - 1
for path in sys.argv[1:]:
    src, pairs, rows, prev = {}, [], [], None
    move_ns = move_pages = 0
    with gzip.open(path, "rt") as f:
        for line in f:
            m = R.search(line)
            if not m:
                continue
            t, ev, rest = float(m.group(1)), m.group(2), m.group(3)
            kv = dict(x.split("=", 1) for x in rest.replace(",", "").split())
            if ev == "set_migration_pte":
                src[kv["addr"]] = ((~int(kv["pte"], 16) << 5) & M64) >> 14 & (2**34 - 1)
                prev = None
            elif ev == "remove_migration_pte":
                dst = (int(kv["pte"], 16) >> 12) & (2**40 - 1)
                s = src.pop(kv["addr"], None)
                if s is not None:
                    pairs.append((s, dst))
                    if prev is not None:
                        rows.append((t - prev, s, dst))
                prev = t
            else:
                prev = None
                if ev == "mm_migrate_batch" and kv.get("reason") == "numa_misplaced":
                    move_ns += int(kv["copy_ns"]) + int(kv["move_ns"])
                    move_pages += int(kv["pages"])
    cls = " ".join(f"2^{k}:{sum(1 for s, d in pairs if (d - s) % (1 << k) == 0)}"
                   for k in (9, 10, 11, 12))
    per = f"{move_ns / move_pages / 1e3:.0f} us/page" if move_pages else "-"
    print(f"{path}: {len(pairs)} pairs; same TLB slot mod {cls}; copy+move "
          f"{move_ns / 1e9:.2f} s for {move_pages} pages, {per}")
    if not rows:
        continue
    ts = sorted(r[0] for r in rows)
    print(f"  {len(rows)} pages timed: median {ts[len(ts) // 2] * 1e3:.3f} ms, "
          f"p90 {ts[int(len(ts) * .9)] * 1e3:.3f} ms, max {ts[-1] * 1e3:.1f} ms; "
          f"{sum(x for x in ts if x > 1e-3):.2f} s of {sum(ts):.2f} s in pages over 1 ms")
    for dt, s, d in sorted(rows, reverse=True)[:8]:
        print(f"  {dt * 1e3:9.1f} ms  src {s:#x}  dst {d:#x}")
