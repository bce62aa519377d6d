# SPDX-License-Identifier: GPL-2.0
"""scripts/results.py, the one renderer: medians, ranges and ratios from the
CSV migbench writes, the compaction rows, splits, and compare."""
import csv as csvmod
import io
import os
import subprocess

import pytest

from conftest import TOP, run

RES = os.path.join(TOP, "scripts", "results.py")
MB = os.path.join(TOP, "tools", "migbench", "migbench")


@pytest.fixture(scope="module")
def cols():
    subprocess.run(["make", "-s", "-C", os.path.join(TOP, "tools")], check=True)
    return run([MB, "--csv-header"]).stdout.strip().split(",")


def write(path, cols, rows):
    """rows: dicts with some of the columns; the rest empty."""
    buf = io.StringIO()
    w = csvmod.DictWriter(buf, fieldnames=cols, restval="")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    path.write_text(buf.getvalue())


def mv(label, table, fsize, nr, gbps, rep, **extra):
    moved = fsize * nr
    return dict(label=label, table=table, folio_size_B=fsize, folios=nr, moved_B=moved,
                rep=rep, wall_s=f"{moved / gbps / 1e9:.9f}", folio_splits=0,
                pgmigrate_fail=0, **extra)


def test_one_quantity_per_column_with_units(cols):
    for c in ("folio_size_B", "moved_B", "wall_s", "cpu_s", "first_unavailable_s",
              "folio_splits", "pgmigrate_fail", "pages_migrated", "free_2M_blocks",
              "hog_iterations"):
        assert c in cols
    assert "gbps" not in cols and "folio_bytes" not in cols and "seconds" not in cols


def test_tables_medians_ranges_ratios_and_plot(tmp_path, cols):
    csv = tmp_path / "m.csv"
    write(csv, cols, [
        mv("vanilla", "a", 4096, 16384, 1.0, 0), mv("vanilla", "a", 4096, 16384, 2.0, 1),
        mv("vanilla", "a", 4096, 16384, 3.0, 2),
        mv("patched", "a", 4096, 16384, 4.0, 0), mv("patched", "a", 4096, 16384, 4.0, 1),
        mv("vanilla", "b", 2 << 20, 8, 0.5, 0),
        dict(label="vanilla", table="limit", threads=1, moved_B=64 << 20, rep=0,
             wall_s=(64 << 20) / 0.3e9),
        dict(label="vanilla", table="limit", threads=2, moved_B=64 << 20, rep=0,
             wall_s=(64 << 20) / 0.6e9),
    ])
    md, png = tmp_path / "m.md", tmp_path / "m.png"
    r = run(["python3", RES, str(csv), "--md", str(md), "--png", str(png), "--meta", "kernel=x"])
    assert r.returncode == 0, r.stderr
    text = md.read_text()
    assert "| vanilla | 2.000 (1.000–3.000) |" in text
    assert "| patched | 4.000 (4.000–4.000) 2.00× |" in text
    assert "| 8 | 0.500 |" in text
    assert "| vanilla | 0.300 | 0.600 |" in text
    assert "| kernel | x |" in text
    assert "No folio was split" in text
    assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size > 10000


def test_empty_csv_is_an_error(tmp_path, cols):
    csv = tmp_path / "e.csv"
    write(csv, cols, [])
    r = run(["python3", RES, str(csv)])
    assert r.returncode != 0 and "no rows" in r.stderr


def test_workloads_bandwidth_and_cpu_per_gb(tmp_path, cols):
    csv = tmp_path / "w.csv"
    b = 1000 * 4096 + 24 * (2 << 20)
    write(csv, cols, [dict(label=lab, table="w", folios=1024, small_folios=1000,
                           large_folios=24, moved_B=b, rep=0, wall_s=secs, cpu_s=cpu)
                      for lab, secs, cpu in (("cpu", 0.2, 0.2), ("dcbm", 0.1, 0.02))])
    r = run(["python3", RES, str(csv)])
    assert r.returncode == 0, r.stderr
    gbs = b / 1e9
    assert f"| 1000 × 4K + 24 × 2M | {gbs / 0.2:.3f} | {gbs / 0.1:.3f} 2.00× |" in r.stdout
    assert f"| 1000 × 4K + 24 × 2M | {0.2 / gbs:.3f} | {0.02 / gbs:.3f} 0.10× |" in r.stdout


def test_compaction_rows_and_splits_are_rendered(tmp_path, cols):
    csv = tmp_path / "c.csv"
    write(csv, cols, [
        dict(label="cpu", table="compaction", rep=0, wall_s=2.0, cpu_s=1.5,
             pages_migrated=30000, free_2M_blocks=400, hog_iterations=1000),
        dict(label="dcbm-4", table="compaction", rep=0, wall_s=2.5, cpu_s=0.5,
             pages_migrated=30000, free_2M_blocks=410, hog_iterations=3000),
        mv("cpu", "a", 2 << 20, 32, 1.0, 0) | dict(folio_splits=3, pgmigrate_fail=0),
    ])
    r = run(["python3", RES, str(csv)])
    assert r.returncode == 0, r.stderr
    assert "| cpu | 1 | 2.00 | 30000.00 | 400.00 | 1.50 | 0.50 | 1000.00 |" in r.stdout
    assert "| dcbm-4 | 1 | 2.50 |" in r.stdout
    assert "| cpu | a | 1 | 3 | 0 |" in r.stdout


def test_compare_two_runs(tmp_path, cols):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    write(a / "migbench.csv", cols, [mv("k", "a", 65536, 1024, g, i) for i, g in enumerate((1.0, 1.2, 0.8))])
    write(b / "migbench.csv", cols, [mv("k", "a", 65536, 1024, g, i) for i, g in enumerate((2.0, 2.2, 1.8))]
          + [mv("k", "b", 2 << 20, 4, 1.0, 0)])
    r = run(["python3", RES, "compare", str(a), str(b)])
    assert r.returncode == 0, r.stderr
    assert "| a | 64K | k | GB/s | 1.000 (0.800–1.200) | 2.000 (1.800–2.200) | 2.000 | 1.500–2.750 |" in r.stdout
    assert "1 point(s) only in one of the two runs" in r.stdout


def test_compare_two_labels_of_one_file(tmp_path, cols):
    f = tmp_path / "m.csv"
    write(f, cols, [mv("vanilla", "b", 2 << 20, 1, 0.5, 0), mv("mtcopy-2", "b", 2 << 20, 1, 0.75, 0)])
    r = run(["python3", RES, "compare", str(f), str(f), "--label-a", "vanilla", "--label-b", "mtcopy-2"])
    assert r.returncode == 0, r.stderr
    assert "| b | 1 × 2M | – | GB/s | 0.500 | 0.750 | 1.500 | 1.500–1.500 |" in r.stdout


def test_compare_with_nothing_in_common_fails(tmp_path, cols):
    f, g = tmp_path / "f.csv", tmp_path / "g.csv"
    write(f, cols, [mv("x", "a", 4096, 10, 1.0, 0)])
    write(g, cols, [mv("y", "b", 2 << 20, 1, 1.0, 0)])
    r = run(["python3", RES, "compare", str(f), str(g)])
    assert r.returncode == 1 and "no point in common" in r.stdout


def test_phases_table(tmp_path):
    """make bench-phases' CSV: medians per phase; cpu's copy estimated from
    its move phase minus mtcopy-1's in the same repetition."""
    f = tmp_path / "p.csv"
    hdr = "rep,folio_size_B,engine,move_wall_s,batches,folios,unmap_ns,flush_ns,copy_ns,move_ns,memcpy_wall_s,memcpy_B\n"
    rows = ""
    for rep in (1, 2):
        # 512 x 64K = 32 MiB; memcpy 32 MiB in 0.032 s = 1.048576 GB/s
        rows += f"{rep},65536,cpu,0.2,1,512,1000000,50000,0,{100_000_000 + rep},0.032,33554432\n"
        rows += f"{rep},65536,mtcopy-1,0.1,1,512,1000000,50000,40000000,{20_000_000 + rep},0.032,33554432\n"
    f.write_text(hdr + rows)
    r = run(["python3", RES, "phases", str(f), "--meta", "kernel=k"])
    assert r.returncode == 0, r.stderr
    assert "## 64K folios" in r.stdout and "- kernel: k" in r.stdout
    # cpu: copy = 80 ms -> 33554432 / 80e6 ns = 0.42 GB/s, memcpy 1.05
    assert "| cpu | 2 | 1 | 1.00 (1.00–1.00) | 0.05 (0.05–0.05) | 0.00 (0.00–0.00) | 100.00 (100.00–100.00) | 101.05 (101.05–101.05) | 0.42 (est.) | 1.05 | 0.40 |" in r.stdout
    assert "| mtcopy-1 | 2 | 1 | 1.00 (1.00–1.00) | 0.05 (0.05–0.05) | 40.00 (40.00–40.00) | 20.00 (20.00–20.00) | 61.05 (61.05–61.05) | 0.84 | 1.05 | 0.80 |" in r.stdout


def test_compaction_row_writer_has_the_header_columns(cols):
    """bench/dma.sh writes its compaction rows with printf: as many fields
    as migbench's header, with the values where results.py reads them."""
    import re
    src = open(os.path.join(TOP, "bench", "dma.sh")).read()
    fmt = re.search(r"printf '(%s,compaction,[^']*)\\n'", src).group(1)
    fields = fmt.split(",")
    assert len(fields) == len(cols), (len(fields), len(cols))
    spec = [c for c, f in zip(cols, fields) if f.startswith("%")]
    assert spec == ["label", "rep", "wall_s", "cpu_s", "pages_migrated", "free_2M_blocks",
                    "hog_iterations"]


def test_engine_below_cpu_gets_a_warning(tmp_path, cols):
    """A point where an engine's median is below 0.95x cpu's is named, on
    the terminal and in the markdown; points at or above it are not."""
    csv = tmp_path / "w.csv"
    rows = []
    for rep in range(3):
        rows += [mv("cpu", "b", 2 << 20, 4, 0.45, rep), mv("mtcopy-2T", "b", 2 << 20, 4, 0.08, rep),
                 mv("cpu", "b", 2 << 20, 1, 0.45, rep), mv("mtcopy-2T", "b", 2 << 20, 1, 0.44, rep),
                 mv("cpu", "a", 65536, 512, 0.7, rep), mv("mtcopy-2T", "a", 65536, 512, 0.9, rep),
                 mv("vanilla", "a", 65536, 512, 0.1, rep)]
    write(csv, cols, rows)
    md = tmp_path / "w.md"
    r = run([RES, "render", str(csv), "--md", str(md)])
    warn = [line for line in r.stdout.splitlines() if line.startswith("WARNING")]
    assert len(warn) == 1, r.stdout
    assert "mtcopy-2T at 4 x 2M (table b): 0.18x cpu" in warn[0]
    assert "- " + warn[0] in md.read_text()
    # no cpu label, nothing to compare with: no warning
    write(csv, cols, [r for r in rows if r["label"] != "cpu"])
    assert "WARNING" not in run([RES, "render", str(csv), "--md", str(md)]).stdout


def test_paired_ratios_are_taken_round_by_round(tmp_path, cols):
    """The paired table divides each engine's round by cpu's same round:
    a slow spell in round 1 that hits both sides leaves the ratio alone,
    where the ratio of medians would not see it."""
    csv = tmp_path / "p.csv"
    rows = []
    for rep, (c, m) in enumerate(((0.45, 0.50), (0.09, 0.10), (0.44, 0.40))):
        rows += [mv("cpu", "b", 2 << 20, 4, c, rep), mv("mtcopy-2T", "b", 2 << 20, 4, m, rep)]
    # cpu without round 3, mtcopy without round 4: neither is paired, and
    # pairing by position instead of by round would pair them
    rows += [mv("mtcopy-2T", "b", 2 << 20, 4, 0.9, 3), mv("cpu", "b", 2 << 20, 4, 0.1, 4)]
    rows.reverse()
    write(csv, cols, rows)
    md = tmp_path / "p.md"
    run([RES, "render", str(csv), "--md", str(md)])
    line = [x for x in md.read_text().splitlines() if x.startswith("| mtcopy-2T | b | 4 x 2M |")]
    assert line == ["| mtcopy-2T | b | 4 x 2M | 1.11 (0.91–1.11) | 1 of 3 |"], md.read_text()
    # the same round twice (two runs in one CSV) is not a round: no ratio
    write(csv, cols, rows + [mv("cpu", "b", 2 << 20, 4, 0.2, 0)])
    run([RES, "render", str(csv), "--md", str(md)])
    assert "| mtcopy-2T | b | 4 x 2M | – (a round appears twice) | – |" in md.read_text()


def test_tlb_alias_folios_are_summed_per_label_and_table(tmp_path, cols):
    """migbench's tlb_alias_folios column: per label and table, the
    repetitions with any aliasing folio, the aliasing folios, and the folios
    moved in rows that record it; no section when no row records it."""
    assert "tlb_alias_folios" in cols
    csv = tmp_path / "t.csv"
    write(csv, cols, [
        mv("cpu", "b", 2 << 20, 16, 0.3, 0, tlb_alias_folios=12),
        mv("cpu", "b", 2 << 20, 16, 0.3, 1, tlb_alias_folios=0),
        mv("cpu", "b", 2 << 20, 4, 0.3, 2, tlb_alias_folios=4),
        mv("mtcopy-2T", "b", 2 << 20, 16, 0.4, 0, tlb_alias_folios=0),
    ])
    r = run(["python3", RES, str(csv)])
    assert r.returncode == 0, r.stderr
    assert "alias in QEMU TCG's TLB" in r.stdout
    assert "| cpu | b | 2 | 16 | 36 |" in r.stdout
    assert "| mtcopy-2T | b | 0 | 0 | 16 |" in r.stdout
    write(csv, cols, [mv("cpu", "b", 2 << 20, 16, 0.3, 0)])
    r = run(["python3", RES, str(csv)])
    assert r.returncode == 0, r.stderr
    assert "alias in QEMU TCG's TLB" not in r.stdout


def test_exchange_table_sets_exchange_beside_two_migrations(tmp_path, cols):
    """Table x: per label and size, the exchange's and the two migrations'
    medians, their ratio, and the CPU time per GB of each."""
    csv = tmp_path / "x.csv"
    rows = []
    for rep, (gx, g2) in enumerate(((1.3, 1.0), (1.5, 1.0), (1.2, 0.8))):
        rows.append(mv("cpu", "x", 4096, 100, gx, rep, cpu_s="0.01"))
        rows.append(mv("cpu", "x2m", 4096, 100, g2, rep, cpu_s="0.02"))
    write(csv, cols, rows)
    r = run(["python3", RES, str(csv)])
    assert r.returncode == 0, r.stderr
    assert "(x) Exchange" in r.stdout
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("| cpu | 4K |"))
    assert "| 1.300 (1.200–1.500) | 1.000 (0.800–1.000) | 1.30× |" in line, line


def test_full_node_table_and_its_counters(tmp_path, cols):
    """Table xfull: exchange beside two migrations with DST full, and per
    label and table the range of DST's room and the reclaim and compaction
    counters, summed."""
    csv = tmp_path / "xf.csv"
    rows = []
    for rep in range(2):
        rows.append(mv("cpu", "xf", 2 << 20, 64, 1.0, rep, cpu_s="0.1",
                       dst_room_pages=700 + rep, pgscan_kswapd=0, compact_stall=0))
        rows.append(mv("cpu", "x2mf", 2 << 20, 64, 0.5, rep, cpu_s="0.2",
                       dst_room_pages=700, pgscan_kswapd=30, compact_stall=2))
    write(csv, cols, rows)
    r = run(["python3", RES, str(csv)])
    assert r.returncode == 0, r.stderr
    assert "(xfull) Exchange" in r.stdout and "DST full" in r.stdout
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("| cpu | 2M |"))
    assert "| 1.000 (1.000–1.000) | 0.500 (0.500–0.500) | 2.00× |" in line, line
    # pairs/s: 64 pairs of 2 MB, 128 MiB a side, at 1.0 and 0.5 GB/s
    assert "| 2.00× | 477 (477–477) | 238 (238–238) |" in line, line
    assert "| cpu | x2mf | 2 | 700–700 | 60 | 0 | 0 | 4 |" in r.stdout
    assert "| cpu | xf | 2 | 700–701 | 0 | 0 | 0 | 0 |" in r.stdout
