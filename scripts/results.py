#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The one renderer of benchmark results: CSV rows in, tables and plots out.

    results.py [render] CSV [--md OUT.md] [--png OUT.png] [--title T] [--meta KEY=VALUE ...]
    results.py compare A B [--label-a L] [--label-b L]
    results.py phases CSV [--md OUT.md] [--meta KEY=VALUE ...]

The CSV is what tools/migbench (and bench/dma.sh's compaction rows) write:
one row per repetition, one quantity per column, the unit in the column
name (see `migbench --csv-header`). Rows with the same label form one
column of a table. Every cell is the median of the repetitions with their
range (min–max), and a ratio to the first label (the baseline) where there
is more than one label. Derived quantities (GB/s, ms, CPU s per GB) are
computed here and nowhere else.

compare takes two CSV files or two result directories (holding migbench.csv)
and shows, for every point both have, each side's median and range, and the
ratio B/A of the medians with the range it can take given the spread
(min B / max A .. max B / min A). With --label-a/--label-b it compares two
labels (for example two kernels) from the same or different files.

phases renders bench/phases.sh's CSV (make bench-phases): per folio size and
engine, the median time per move in each phase of migrate_pages_batch()
(trace event mm_migrate_batch) with its range, and the copy bandwidth
against the memcpy limit timed beside it.
"""
import argparse
import csv
import os
import statistics
import sys
from collections import OrderedDict, defaultdict

# Run by hand with the system's python3: the plot needs matplotlib, which
# is in the harness's venv (scripts/setup.sh); use the venv's Python.
VENV_PY = os.path.join(os.environ.get("MEMACCEL_VENV", os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "venv")), "bin", "python3")
if __name__ == "__main__" and sys.prefix == sys.base_prefix and os.path.exists(VENV_PY):
    os.execv(VENV_PY, [VENV_PY] + sys.argv)

INT_COLS = ("folio_size_B", "folios", "small_folios", "large_folios", "batch_folios",
            "threads", "moved_B", "rep", "folio_splits", "pgmigrate_fail",
            "pages_migrated", "free_2M_blocks", "hog_iterations", "tlb_alias_folios",
            "dst_room_pages", "pgscan_kswapd", "pgscan_direct", "allocstall", "compact_stall")
FLOAT_COLS = ("wall_s", "cpu_s", "first_unavailable_s")


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "migbench.csv")
    rows = []
    with open(path) as f:
        reader = csv.DictReader(f)
        missing = {"label", "table", "wall_s"} - set(reader.fieldnames or ())
        if missing:
            raise SystemExit(f"results: {path}: not a migbench CSV (no column {', '.join(sorted(missing))})")
        for r in reader:
            for k in INT_COLS:
                r[k] = int(r[k]) if r.get(k) else None
            for k in FLOAT_COLS:
                r[k] = float(r[k]) if r.get(k) else None
            rows.append(r)
    if not rows:
        raise SystemExit(f"results: {path} has no rows")
    return rows


# Quantities derived from a row, each with its unit.
def gbps(r):
    return r["moved_B"] / r["wall_s"] / 1e9


def first_ms(r):
    return r["first_unavailable_s"] * 1e3


def cpu_per_gb(r):
    return r["cpu_s"] / (r["moved_B"] / 1e9)


def summary(vals):
    """(median, min, max)"""
    return statistics.median(vals), min(vals), max(vals)


def fmt(vals, digits=3):
    if not vals:
        return "–"
    m, lo, hi = summary(vals)
    if len(vals) == 1:
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} ({lo:.{digits}f}–{hi:.{digits}f})"


def cell(vals, base_vals, is_base, digits=3):
    """median (range) of vals, with the ratio to base_vals' median unless is_base."""
    s = fmt(vals, digits)
    if not vals or is_base or not base_vals:
        return s
    return f"{s} {summary(vals)[0] / summary(base_vals)[0]:.2f}×"


def size_name(b):
    return f"{b >> 20}M" if b >= 1 << 20 and b % (1 << 20) == 0 else f"{b >> 10}K"


def group(rows, table, key, value):
    """label -> key -> [value(row)], labels in order of appearance."""
    g = defaultdict(lambda: defaultdict(list))
    labels = OrderedDict()
    for r in rows:
        if r["table"] != table:
            continue
        labels[r["label"]] = None
        g[r["label"]][key(r)].append(value(r))
    return list(labels), g


def grid(out, title, corner, rows, cols, row_name, col_name, cell_of):
    """A markdown table: cell_of(row, col) for every row and column."""
    out.append(f"#### {title}\n")
    out.append(f"| {corner} | " + " | ".join(col_name(c) for c in cols) + " |")
    out.append("|---|" + "---|" * len(cols))
    for r in rows:
        out.append(f"| {row_name(r)} | " + " | ".join(cell_of(r, c) for c in cols) + " |")
    out.append("")


def label_table(out, title, labels, g, keys, key_name, digits=3):
    """One row per label, one column per key; ratios to the first label."""
    base = labels[0]
    grid(out, title, "label", labels, keys, str, key_name,
         lambda lab, k: cell(g[lab][k], g[base][k], lab == base, digits))


def key_table(out, title, first_col, labels, g, keys, key_name, digits=3):
    """One row per key, one column per label; ratios to the first label."""
    base = labels[0]
    grid(out, title, first_col, keys, labels, key_name, str,
         lambda k, lab: cell(g[lab][k], g[base][k], lab == base, digits))


def wkey(r):
    return r["small_folios"], r["large_folios"]


def wname(k):
    return f"{k[0]} × 4K + {k[1]} × 2M"


# Points where an engine is below this fraction of the cpu engine's median
# get a warning line (a benchmark observation, never a test verdict).
SLOWER_THAN_CPU = 0.95
BASE_ENGINE = "cpu"


# The tables whose points engines are held against cpu at: table, the
# point of a row, and its name
POINT_TABLES = (("a", lambda r: r["folio_size_B"], size_name),
                ("b", lambda r: r["folios"], lambda c: f"{c} x 2M"),
                ("w", wkey, wname))


def compared_to_cpu(label):
    """Whether a label is an engine to hold against the cpu engine."""
    return label not in (BASE_ENGINE, "vanilla") and not label.startswith("limit")


def slower_than_cpu(rows):
    """Lines for every (table, point, label) whose median throughput is
    below SLOWER_THAN_CPU x the cpu label's median at the same point."""
    out = []
    for table, key, name in POINT_TABLES:
        labels, g = group(rows, table, key, gbps)
        if BASE_ENGINE not in labels:
            continue
        for lab in labels:
            if not compared_to_cpu(lab):
                continue
            for k, vals in g[lab].items():
                base = g[BASE_ENGINE].get(k)
                if not vals or not base:
                    continue
                ratio = summary(vals)[0] / summary(base)[0]
                if ratio < SLOWER_THAN_CPU:
                    out.append(f"WARNING: {lab} at {name(k)} (table {table}): "
                               f"{ratio:.2f}x {BASE_ENGINE} (medians {summary(vals)[0]:.3f} / "
                               f"{summary(base)[0]:.3f} GB/s, {len(vals)} / {len(base)} reps)")
    return out


def paired_section(out, rows):
    """Per point of tables a and b and per engine: its throughput over the
    cpu engine's in the same round (rep), the ratio taken round by round,
    so a host slow spell that hits one round hits both sides of its ratio.
    Median (min-max) of those ratios, and how many rounds are below 1.0."""
    lines = []
    for table, key, name in POINT_TABLES[:2]:
        per = defaultdict(dict)  # (label, point) -> rep -> GB/s
        dup = set()  # two rows of one label, point and rep: not one round each
        for r in rows:
            if r["table"] == table and r["rep"] is not None:
                k = (r["label"], key(r))
                if r["rep"] in per[k]:
                    dup.add(k[1])
                per[k][r["rep"]] = gbps(r)
        for (lab, k), reps in per.items():
            base = per.get((BASE_ENGINE, k))
            if not compared_to_cpu(lab) or not base:
                continue
            if k in dup:
                lines.append(f"| {lab} | {table} | {name(k)} | – (a round appears twice) | – |")
                continue
            ratios = [reps[i] / base[i] for i in sorted(reps) if i in base]
            if ratios:
                below = sum(x < 1 for x in ratios)
                lines.append(f"| {lab} | {table} | {name(k)} | {fmt(ratios, 2)} "
                             f"| {below} of {len(ratios)} |")
    if lines:
        out.append(f"#### Paired by round: each engine over {BASE_ENGINE} in the same "
                   "repetition (rep), median of the per-repetition ratios (min–max); a "
                   "round only where the engines ran interleaved, as bench/engines.sh runs them\n")
        out.append("| label | table | point | ratio | rounds below 1.0 |")
        out.append("|---|---|---|---|---|")
        out += lines
        out.append("")


def exchange_section(out, rows, tx="x", t2m="x2m", what=""):
    """Table x (or xfull) of migbench: per label and folio size, exchange
    (tx) and two migrations (t2m) side by side, with the ratio of their
    medians."""
    def size(r):
        return r["folio_size_B"]

    def pairs_per_s(r):
        return r["folios"] / r["wall_s"]

    labels, x = group(rows, tx, size, gbps)
    _, x2 = group(rows, t2m, size, gbps)
    _, xp = group(rows, tx, size, pairs_per_s)
    _, x2p = group(rows, t2m, size, pairs_per_s)
    _, xc = group(rows, tx, size, cpu_per_gb)
    _, x2c = group(rows, t2m, size, cpu_per_gb)
    if not labels:
        return
    out.append(f"#### ({'x' if tx == 'x' else 'xfull'}) Exchange (MPOL_MF_EXCHANGE) against two migrations "
               f"(the DST-side folios to SRC, then the SRC-side ones to DST){what}: "
               "GB/s of data placed (both sides), pairs of folios traded per second, "
               "and the calling thread's CPU s/GB\n")
    out.append("| label | folio | exchange GB/s | two migrations GB/s | exchange / two migrations "
               "| exchange pairs/s | two migrations pairs/s "
               "| exchange CPU s/GB | two migrations CPU s/GB |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for lab in labels:
        for k in sorted(x[lab]):
            a, b = x[lab][k], x2[lab].get(k, [])
            ratio = f"{summary(a)[0] / summary(b)[0]:.2f}×" if a and b else "–"
            out.append(f"| {lab} | {size_name(k)} | {fmt(a)} | {fmt(b)} | {ratio} "
                       f"| {fmt(xp[lab][k], 0)} | {fmt(x2p[lab].get(k, []), 0)} "
                       f"| {fmt(xc[lab][k])} | {fmt(x2c[lab].get(k, []))} |")
    out.append("")


def sums_by_label_table(rows, keep, fields):
    """(label, table) -> the sums of each of fields(row) over the rows that
    keep(row) picks, in order of appearance."""
    agg = OrderedDict()
    for r in rows:
        if keep(r):
            s = agg.setdefault((r["label"], r["table"]), [0] * len(fields))
            for i, f in enumerate(fields):
                s[i] += f(r)
    return agg


def sums_table(out, title, cols, agg):
    """A markdown table of sums_by_label_table()'s result."""
    out.append(f"#### {title}\n")
    out.append("| label | table | " + " | ".join(cols) + " |")
    out.append("|---|---|" + "---|" * len(cols))
    for (lab, t), sums in agg.items():
        out.append(f"| {lab} | {t} | " + " | ".join(str(v) for v in sums) + " |")
    out.append("")


def tlb_alias_section(out, rows):
    """Per label and table: the folios that moved between frames aliasing
    in QEMU TCG's software TLB (migbench's tlb_alias_folios column), out
    of the folios moved in the rows that record it."""
    agg = sums_by_label_table(rows, lambda r: r.get("tlb_alias_folios") is not None,
                              (lambda r: 1 if r["tlb_alias_folios"] else 0,
                               lambda r: r["tlb_alias_folios"],
                               lambda r: r["folios"] or 0))
    if agg:
        sums_table(out, "Folios moved between frames that alias in QEMU TCG's TLB "
                   "(frame numbers a multiple of 1024 apart; such a copy is ~13x slower)",
                   ("repetitions with any", "aliasing folios", "folios moved"), agg)


def markdown(rows, meta):
    out = []
    if meta:
        out.append("| | |\n|---|---|")
        out += [f"| {k} | {v} |" for k, v in meta]
        out.append("")
    out.append("Each cell: median of the repetitions (min–max); × = ratio of medians "
               "to the first label.\n")
    labels, lim = group(rows, "limit", lambda r: r["threads"], gbps)
    if labels:
        threads = sorted({t for lab in labels for t in lim[lab]})
        label_table(out, "Copy limit: memcpy between the nodes in the guest, GB/s",
                    labels, lim, threads, lambda t: f"{t} thread{'s' if t > 1 else ''}")
    labels, a = group(rows, "a", lambda r: r["folio_size_B"], gbps)
    if labels:
        sizes = sorted({s for lab in labels for s in a[lab]})
        total = max(r["moved_B"] for r in rows if r["table"] == "a")
        label_table(out, f"(a) move_pages(2) throughput by folio size, GB/s "
                    f"({total >> 20} MiB per move)", labels, a, sizes, size_name)
        if lim:
            out.append("#### (a) as a fraction of the copy limit of the same label "
                       "(1 thread / all threads)\n")
            out.append("| label | " + " | ".join(size_name(s) for s in sizes) + " |")
            out.append("|---|" + "---|" * len(sizes))
            for lab in labels:
                if not lim.get(lab):
                    continue
                l1 = summary(lim[lab][min(lim[lab])])[0]
                ln = summary(lim[lab][max(lim[lab])])[0]
                cells = [f"{summary(a[lab][s])[0] / l1:.0%} / {summary(a[lab][s])[0] / ln:.0%}"
                         if a[lab][s] else "–" for s in sizes]
                out.append(f"| {lab} | " + " | ".join(cells) + " |")
            out.append("")
    labels, b = group(rows, "b", lambda r: r["folios"], gbps)
    if labels:
        counts = sorted({c for lab in labels for c in b[lab]})
        key_table(out, "(b) move_pages(2) throughput of 2 MB folios by number of folios, GB/s",
                  "folios", labels, b, counts, str)
    labels, first = group(rows, "first", lambda r: r["batch_folios"], first_ms)
    if labels:
        batches = sorted({c for lab in labels for c in first[lab]})
        key_table(out, "First-folio latency: how long the first 2 MB folio of a 32-folio move "
                  "is unavailable, by folios per batch (batch_max), ms",
                  "folios per batch", labels, first, batches, str, digits=2)
        _, fmove = group(rows, "first", lambda r: r["batch_folios"], gbps)
        key_table(out, "First-folio latency runs: whole move, GB/s", "folios per batch",
                  labels, fmove, batches, str)
    labels, w = group(rows, "w", wkey, gbps)
    if labels:
        loads = sorted({k for lab in labels for k in w[lab]})
        key_table(out, "(w) DSA-2LM workloads in one move_pages(2) call, GB/s", "workload",
                  labels, w, loads, wname)
        _, wcpu = group(rows, "w", wkey, cpu_per_gb)
        key_table(out, "(w) CPU time of the migrating thread per GB moved, s/GB", "workload",
                  labels, wcpu, loads, wname)
    exchange_section(out, rows)
    exchange_section(out, rows, "xf", "x2mf",
                     ", DST full (free memory above its low watermark only the guard)")
    def full(r):
        return r["table"] in ("xf", "x2mf")

    agg = sums_by_label_table(rows, full,
                              (lambda r: 1,
                               lambda r: r["pgscan_kswapd"] or 0,
                               lambda r: r["pgscan_direct"] or 0,
                               lambda r: r["allocstall"] or 0,
                               lambda r: r["compact_stall"] or 0))
    if agg:
        room = {}
        for r in rows:
            if full(r) and r["dst_room_pages"] is not None:
                room.setdefault((r["label"], r["table"]), []).append(r["dst_room_pages"])
        for k, sums in agg.items():
            rs = room.get(k)
            sums.insert(1, f"{min(rs)}–{max(rs)}" if rs else "–")
        sums_table(out, "(xfull) DST's room before each call (its range), and the reclaim and "
                   "compaction during the calls (system-wide, summed over the repetitions)",
                   ("calls", "DST room, pages", "pgscan_kswapd", "pgscan_direct", "allocstall",
                    "compact_stall"), agg)
    labels, comp = group(rows, "compaction", lambda r: "wall_s", lambda r: r)
    if labels:
        out.append("#### Compaction of a fragmented node (bench/dma.sh)\n")
        cols = (("wall s", lambda r: r["wall_s"]),
                ("pages migrated", lambda r: r["pages_migrated"]),
                ("free 2 MB blocks after", lambda r: r["free_2M_blocks"]),
                ("compacting task sys s", lambda r: r["cpu_s"]),
                ("sys s per 10k pages", lambda r: r["cpu_s"] * 1e4 / r["pages_migrated"]
                 if r["pages_migrated"] else None),
                ("CPU-0 hog iterations", lambda r: r["hog_iterations"]))
        out.append("| engine | runs | " + " | ".join(c for c, _ in cols) + " |")
        out.append("|---|---|" + "---|" * len(cols))
        for lab in labels:
            rs = comp[lab]["wall_s"]
            cells = []
            for _, f in cols:
                vals = [v for v in (f(r) for r in rs) if v is not None]
                cells.append(fmt(vals, 2) if vals else "–")
            out.append(f"| {lab} | {len(rs)} | " + " | ".join(cells) + " |")
        out.append("")
    agg = sums_by_label_table(rows, lambda r: r["folio_splits"] or r["pgmigrate_fail"],
                              (lambda r: 1 if r["folio_splits"] else 0,
                               lambda r: r["folio_splits"] or 0,
                               lambda r: r["pgmigrate_fail"] or 0))
    if agg:
        sums_table(out, "Folio splits and failed migrations during the moves (system-wide)",
                   ("repetitions with splits", "folios split", "pgmigrate_fail"), agg)
    else:
        out.append("No folio was split and no page failed to migrate during any move.\n")
    tlb_alias_section(out, rows)
    paired_section(out, rows)
    warn = slower_than_cpu(rows)
    if warn:
        out.append(f"#### Points where an engine is below {SLOWER_THAN_CPU}x {BASE_ENGINE}\n")
        out += [f"- {w}" for w in warn]
        out.append("")
    return "\n".join(out)


def plot(rows, png, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    labels, a = group(rows, "a", lambda r: r["folio_size_B"], gbps)
    _, lim = group(rows, "limit", lambda r: r["threads"], gbps)

    def errbar(ax, xs, series, lab):
        s = [summary(v) for v in series]
        ax.errorbar(xs, [m for m, _, _ in s],
                    yerr=[[m - lo for m, lo, _ in s], [hi - m for m, _, hi in s]],
                    marker="o", capsize=3, label=lab)

    for lab in labels:
        sizes = sorted(a[lab])
        errbar(ax1, range(len(sizes)), [a[lab][s] for s in sizes], lab)
        ax1.set_xticks(range(len(sizes)), [size_name(s) for s in sizes])
    for lab in lim:
        for t in sorted(lim[lab]):
            m = summary(lim[lab][t])[0]
            ax1.axhline(m, linestyle="--", linewidth=0.8, color="grey")
            ax1.annotate(f"memcpy {t}T ({lab})", (0, m), fontsize=7, va="bottom", color="grey")
    ax1.set_xlabel("folio size")
    ax1.set_ylabel("GB/s (median, bars: min–max)")
    ax1.set_title("(a) move_pages by folio size")
    ax1.set_ylim(bottom=0)
    ax1.legend(fontsize=8)
    labels, b = group(rows, "b", lambda r: r["folios"], gbps)
    for lab in labels:
        counts = sorted(b[lab])
        errbar(ax2, counts, [b[lab][c] for c in counts], lab)
    ax2.set_xscale("log", base=2)
    ax2.set_xlabel("number of 2 MB folios")
    ax2.set_ylabel("GB/s (median, bars: min–max)")
    ax2.set_title("(b) 2 MB folios by count")
    ax2.set_ylim(bottom=0)
    ax2.legend(fontsize=8)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


# compare: the points of each table and the quantity read there
POINTS = {
    "limit": (lambda r: f"{r['threads']} threads", gbps, "GB/s"),
    "a": (lambda r: size_name(r["folio_size_B"]), gbps, "GB/s"),
    "b": (lambda r: f"{r['folios']} × 2M", gbps, "GB/s"),
    "first": (lambda r: f"batch {r['batch_folios']}", first_ms, "ms"),
    "w": (lambda r: wname(wkey(r)), gbps, "GB/s"),
    "compaction": (lambda r: "node", lambda r: r["wall_s"], "s"),
}


def points(rows, label):
    """(table, point, label) -> [values]; label None: every label."""
    p = OrderedDict()
    for r in rows:
        if label is not None and r["label"] != label:
            continue
        if r["table"] not in POINTS:
            continue
        key_fn, val_fn, _ = POINTS[r["table"]]
        p.setdefault((r["table"], key_fn(r), r["label"] if label is None else ""), []).append(val_fn(r))
    return p


def compare(a_path, b_path, label_a=None, label_b=None):
    pa, pb = points(load(a_path), label_a), points(load(b_path), label_b)
    name_a = f"{a_path}{f' [{label_a}]' if label_a else ''}"
    name_b = f"{b_path}{f' [{label_b}]' if label_b else ''}"
    out = [f"A: {name_a}", f"B: {name_b}", "",
           "| table | point | label | unit | A median (min–max) | B median (min–max) "
           "| B/A | B/A range |",
           "|---|---|---|---|---|---|---|---|"]
    common = [k for k in pa if k in pb]
    for k in common:
        a, b = pa[k], pb[k]
        (ma, la, ha), (mb, lb, hb) = summary(a), summary(b)
        unit = POINTS[k[0]][2]
        out.append(f"| {k[0]} | {k[1]} | {k[2] or '–'} | {unit} | {fmt(a)} | {fmt(b)} "
                   f"| {mb / ma:.3f} | {lb / ha:.3f}–{hb / la:.3f} |")
    only = len(pa) + len(pb) - 2 * len(common)
    if not common:
        out.append("| (no point in common) | | | | | | | |")
    if only:
        out.append(f"\n{only} point(s) only in one of the two runs are not shown.")
    return "\n".join(out), bool(common)


PHASES = ("unmap_ns", "flush_ns", "copy_ns", "move_ns")


def fmt_ms(values):
    return f"{statistics.median(values) / 1e6:.2f} ({min(values) / 1e6:.2f}–{max(values) / 1e6:.2f})"


def phases_markdown(rows, meta):
    by = defaultdict(list)
    for r in rows:
        by[(int(r["folio_size_B"]), r["engine"])].append(r)
    engines = list(dict.fromkeys(r["engine"] for r in rows))
    sizes = sorted({int(r["folio_size_B"]) for r in rows})
    out = ["# Migration time by phase (trace event mm_migrate_batch)", ""]
    out += [f"- {k}: {v}" for k, v in meta]
    out += ["",
            "Milliseconds per move, median (min–max) over repetitions. "
            "unmap includes allocating the destinations; move includes the "
            "copy of every folio not copied ahead (all of them for cpu).",
            ""]
    for size in sizes:
        out += [f"## {size_name(size)} folios", "",
                "| engine | reps | batches/move | unmap | TLB flush | copy ahead | move | total "
                "| copy GB/s | memcpy GB/s | copy / memcpy |",
                "|---|---|---|---|---|---|---|---|---|---|---|"]
        base_move = {r["rep"]: int(r["move_ns"]) for r in by.get((size, "mtcopy-1"), [])}
        for e in engines:
            rs = by.get((size, e), [])
            if not rs:
                continue
            ph = {p: [int(r[p]) for r in rs] for p in PHASES}
            total = [sum(int(r[p]) for p in PHASES) for r in rs]
            nbytes = [int(r["folios"]) * size for r in rs]
            memcpy = [int(r["memcpy_B"]) / float(r["memcpy_wall_s"]) / 1e9
                      for r in rs if r["memcpy_wall_s"]]
            if e == "cpu":
                # The vanilla path copies inside the move phase: its copy
                # is what the move phase takes beyond mtcopy-1's, whose
                # move phase copies nothing, in the same repetition.
                copy = [int(r["move_ns"]) - base_move[r["rep"]] for r in rs if r["rep"] in base_move]
                note = " (est.)"
            else:
                copy = ph["copy_ns"]
                note = ""
            bw = [b / c for b, c in zip(nbytes, copy) if c > 0]
            ratio = [g / m for g, m in zip(bw, memcpy) if m > 0]
            cells = [e, str(len(rs)), f"{statistics.median(int(r['batches']) for r in rs):.0f}"]
            cells += [fmt_ms(ph[p]) for p in PHASES]
            cells.append(fmt_ms(total))
            cells.append(f"{statistics.median(bw):.2f}{note}" if bw else "–")
            cells.append(f"{statistics.median(memcpy):.2f}" if memcpy else "–")
            cells.append(f"{statistics.median(ratio):.2f}" if ratio else "–")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def main(argv):
    if argv[:1] == ["compare"]:
        ap = argparse.ArgumentParser(prog="results.py compare")
        ap.add_argument("a")
        ap.add_argument("b")
        ap.add_argument("--label-a")
        ap.add_argument("--label-b")
        a = ap.parse_args(argv[1:])
        text, any_common = compare(a.a, a.b, a.label_a, a.label_b)
        print(text)
        return 0 if any_common else 1
    if argv[:1] == ["phases"]:
        ap = argparse.ArgumentParser(prog="results.py phases")
        ap.add_argument("csv")
        ap.add_argument("--md")
        ap.add_argument("--meta", action="append", default=[])
        a = ap.parse_args(argv[1:])
        with open(a.csv) as f:
            rows = list(csv.DictReader(f))
        if not rows:
            raise SystemExit(f"results: {a.csv} has no rows")
        md = phases_markdown(rows, [tuple(m.split("=", 1)) for m in a.meta])
        print(md)
        if a.md:
            with open(a.md, "w") as f:
                f.write(md + "\n")
        return 0
    if argv[:1] == ["render"]:
        argv = argv[1:]
    ap = argparse.ArgumentParser(prog="results.py [render]")
    ap.add_argument("csv")
    ap.add_argument("--md")
    ap.add_argument("--png")
    ap.add_argument("--title", default="migbench")
    ap.add_argument("--meta", action="append", default=[], help="KEY=VALUE line for the table header")
    a = ap.parse_args(argv)
    rows = load(a.csv)
    meta = [tuple(m.split("=", 1)) for m in a.meta]
    md = markdown(rows, meta)
    if a.md:
        with open(a.md, "w") as f:
            f.write(md + "\n")
        # the tables go to the file; the warnings also to the terminal
        for w in slower_than_cpu(rows):
            print(w)
    else:
        print(md)
    if a.png:
        plot(rows, a.png, a.title)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
