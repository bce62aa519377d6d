#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn migbench CSV rows into result tables (markdown) and a PNG plot.

    results.py CSV --md OUT.md --png OUT.png [--meta KEY=VALUE ...]

Rows with the same label form one column of tables (a), (b) and (w); the
copy limit table lists each label's 1- and N-thread memcpy bandwidth. Every
number is mean ± sample standard deviation over the repetitions in the CSV;
ratios to the first label (the baseline) are given where there is more than
one label.
"""
import argparse
import csv
import math
from collections import OrderedDict, defaultdict


def load(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            for k in ("folio_bytes", "nr_folios", "threads", "bytes", "rep"):
                r[k] = int(r[k])
            r["gbps"] = float(r["gbps"])
            rows.append(r)
    if not rows:
        raise SystemExit(f"results: {path} has no rows")
    return rows


def stats(vals):
    n = len(vals)
    m = sum(vals) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in vals) / (n - 1)) if n > 1 else 0.0
    return m, sd


def size_name(b):
    return f"{b >> 20}M" if b >= 1 << 20 and b % (1 << 20) == 0 else f"{b >> 10}K"


def group(rows, table, key):
    g = defaultdict(lambda: defaultdict(list))
    labels = OrderedDict()
    for r in rows:
        if r["table"] != table:
            continue
        labels[r["label"]] = None
        g[r["label"]][key(r)].append(r["gbps"])
    return list(labels), g


def fmt(m, sd):
    return f"{m:.3f} ± {sd:.3f}"


def cell(vals, base_vals, is_base):
    """mean ± sd of vals, with the ratio to base_vals' mean unless is_base."""
    if not vals:
        return "–"
    m, sd = stats(vals)
    if is_base or not base_vals:
        return fmt(m, sd)
    return f"{fmt(m, sd)} ({m / stats(base_vals)[0]:.2f}×)"


def markdown(rows, meta):
    out = []
    if meta:
        out.append("| | |\n|---|---|")
        out += [f"| {k} | {v} |" for k, v in meta]
        out.append("")
    labels, lim = group(rows, "limit", lambda r: r["threads"])
    if labels:
        out.append("#### Copy limit: memcpy node 0 → node 1 in the guest, GB/s\n")
        threads = sorted({t for lab in labels for t in lim[lab]})
        out.append("| label | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in threads) + " |")
        out.append("|---|" + "---|" * len(threads))
        for lab in labels:
            out.append(f"| {lab} | " + " | ".join(fmt(*stats(lim[lab][t])) if lim[lab][t] else "–" for t in threads) + " |")
        out.append("")
    labels, a = group(rows, "a", lambda r: r["folio_bytes"])
    sizes = []
    if labels:
        sizes = sorted({s for lab in labels for s in a[lab]})
        total = max(r["bytes"] for r in rows if r["table"] == "a")
        out.append(f"#### (a) move_pages(2) throughput by folio size, GB/s ({total >> 20} MiB per move)\n")
        out.append("| label | " + " | ".join(size_name(s) for s in sizes) + " |")
        out.append("|---|" + "---|" * len(sizes))
        base = labels[0]
        for lab in labels:
            cells = [cell(a[lab][s], a[base][s], lab == base) for s in sizes]
            out.append(f"| {lab} | " + " | ".join(cells) + " |")
        out.append("")
    if labels and lim:
        # Each label against the in-guest copy limit measured in its own run.
        out.append("#### (a) as a fraction of the in-guest copy limit (1 thread / all threads)\n")
        out.append("| label | " + " | ".join(size_name(s) for s in sizes) + " |")
        out.append("|---|" + "---|" * len(sizes))
        for lab in labels:
            if not lim.get(lab):
                continue
            l1 = stats(lim[lab][min(lim[lab])])[0]
            ln = stats(lim[lab][max(lim[lab])])[0]
            cells = [f"{stats(a[lab][s])[0] / l1:.0%} / {stats(a[lab][s])[0] / ln:.0%}"
                     if a[lab][s] else "–" for s in sizes]
            out.append(f"| {lab} | " + " | ".join(cells) + " |")
        out.append("")
    labels, b = group(rows, "b", lambda r: r["nr_folios"])
    if labels:
        counts = sorted({c for lab in labels for c in b[lab]})
        out.append("#### (b) move_pages(2) throughput of 2 MB folios by number of folios, GB/s\n")
        out.append("| folios | " + " | ".join(labels) + " |")
        out.append("|---|" + "---|" * len(labels))
        base = labels[0]
        for c in counts:
            cells = [cell(b[lab][c], b[base][c], lab == base) for lab in labels]
            out.append(f"| {c} | " + " | ".join(cells) + " |")
        out.append("")
    labels, first = group(rows, "first", lambda r: r["nr_folios"])
    _, fmove = group(rows, "firstmove", lambda r: r["nr_folios"])
    if labels:
        out.append("#### First-folio latency: how long the first 2 MB folio of a move is "
                   "unavailable, by folios per batch (batch_max), ms; whole move GB/s\n")
        out.append("| folios per batch | " + " | ".join(labels) + " |")
        out.append("|---|" + "---|" * len(labels))
        for c in sorted({c for lab in labels for c in first[lab]}):
            cells = []
            for lab in labels:
                if not first[lab][c]:
                    cells.append("–")
                    continue
                # gbps of a "first" row is 2 MB / gap: turn it back into ms
                gm, gsd = stats([2 * 2**20 / g / 1e6 for g in first[lab][c]])
                cells.append(f"{gm:.1f} ± {gsd:.1f} ms, {stats(fmove[lab][c])[0]:.3f} GB/s")
            out.append(f"| {c} | " + " | ".join(cells) + " |")
        out.append("")
    labels, w = group(rows, "w", lambda r: (r["nr_folios"], r["folio_bytes"]))
    _, wcpu = group(rows, "wcpu", lambda r: (r["nr_folios"], r["folio_bytes"]))
    if labels:
        base = labels[0]
        loads = sorted({k for lab in labels for k in w[lab]})
        out.append("#### (w) DSA-2LM workloads in one move_pages(2) call: GB/s "
                   "(ratio to the first column)\n")
        out.append("| workload | " + " | ".join(labels) + " |")
        out.append("|---|" + "---|" * len(labels))
        for k in loads:
            cells = [cell(w[lab][k], w[base][k], lab == base) for lab in labels]
            out.append(f"| {k[0]} × 4K + {k[1]} × 2M | " + " | ".join(cells) + " |")
        out.append("")
        out.append("#### (w) CPU time of the migrating thread per GB moved, s/GB "
                   "(ratio to the first column)\n")
        out.append("| workload | " + " | ".join(labels) + " |")
        out.append("|---|" + "---|" * len(labels))
        for k in loads:
            # gbps of a "wcpu" row is bytes / CPU seconds: s/GB is its inverse
            inv = {lab: [1 / g if g else float("inf") for g in wcpu[lab][k]] for lab in labels}
            cells = [cell(inv[lab], inv[base], lab == base) if inv[lab] else "–" for lab in labels]
            out.append(f"| {k[0]} × 4K + {k[1]} × 2M | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def plot(rows, png, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    labels, a = group(rows, "a", lambda r: r["folio_bytes"])
    _, lim = group(rows, "limit", lambda r: r["threads"])
    for lab in labels:
        sizes = sorted(a[lab])
        ms = [stats(a[lab][s]) for s in sizes]
        ax1.errorbar(range(len(sizes)), [m for m, _ in ms], yerr=[sd for _, sd in ms],
                     marker="o", capsize=3, label=lab)
        ax1.set_xticks(range(len(sizes)), [size_name(s) for s in sizes])
    for lab in lim:
        for t in sorted(lim[lab]):
            ax1.axhline(stats(lim[lab][t])[0], linestyle="--", linewidth=0.8, color="grey")
            ax1.annotate(f"memcpy {t}T ({lab})", (0, stats(lim[lab][t])[0]), fontsize=7,
                         va="bottom", color="grey")
    ax1.set_xlabel("folio size")
    ax1.set_ylabel("GB/s")
    ax1.set_title("(a) move_pages by folio size")
    ax1.set_ylim(bottom=0)
    ax1.legend(fontsize=8)
    labels, b = group(rows, "b", lambda r: r["nr_folios"])
    for lab in labels:
        counts = sorted(b[lab])
        ms = [stats(b[lab][c]) for c in counts]
        ax2.errorbar(counts, [m for m, _ in ms], yerr=[sd for _, sd in ms],
                     marker="o", capsize=3, label=lab)
    ax2.set_xscale("log", base=2)
    ax2.set_xlabel("number of 2 MB folios")
    ax2.set_ylabel("GB/s")
    ax2.set_title("(b) 2 MB folios by count")
    ax2.set_ylim(bottom=0)
    ax2.legend(fontsize=8)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--md")
    ap.add_argument("--png")
    ap.add_argument("--title", default="migbench")
    ap.add_argument("--meta", action="append", default=[], help="KEY=VALUE line for the table header")
    a = ap.parse_args()
    rows = load(a.csv)
    meta = [tuple(m.split("=", 1)) for m in a.meta]
    md = markdown(rows, meta)
    if a.md:
        with open(a.md, "w") as f:
            f.write(md + "\n")
    else:
        print(md)
    if a.png:
        plot(rows, a.png, a.title)


if __name__ == "__main__":
    main()
