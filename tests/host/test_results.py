# SPDX-License-Identifier: GPL-2.0
"""scripts/results.py computes mean ± sd and ratios from the CSV it is given."""
import os
import subprocess

from conftest import TOP, run

RES = os.path.join(TOP, "scripts", "results.py")
MB = os.path.join(TOP, "tools", "migbench", "migbench")


def header():
    subprocess.run(["make", "-s", "-C", os.path.join(TOP, "tools")], check=True)
    return run([MB, "--csv-header"]).stdout


def row(label, table, fb, nr, th, gbps, rep):
    b = fb * nr if fb else 64 << 20
    return f"{label},{table},{fb},{nr},{th},{b},{rep},{b / gbps / 1e9:.9f},{gbps}\n"


def test_tables_and_plot(tmp_path):
    csv = tmp_path / "m.csv"
    rows = header()
    rows += row("vanilla", "a", 4096, 16384, 0, 1.0, 0) + row("vanilla", "a", 4096, 16384, 0, 3.0, 1)
    rows += row("patched", "a", 4096, 16384, 0, 4.0, 0) + row("patched", "a", 4096, 16384, 0, 4.0, 1)
    rows += row("vanilla", "b", 2 << 20, 8, 0, 0.5, 0)
    rows += row("vanilla", "limit", 0, 0, 1, 0.3, 0) + row("vanilla", "limit", 0, 0, 2, 0.6, 0)
    csv.write_text(rows)
    md, png = tmp_path / "m.md", tmp_path / "m.png"
    r = run(["python3", RES, str(csv), "--md", str(md), "--png", str(png), "--meta", "kernel=x"])
    assert r.returncode == 0, r.stderr
    text = md.read_text()
    assert "| vanilla | 2.000 ± 1.414 |" in text
    assert "| patched | 4.000 ± 0.000 (2.00×) |" in text
    assert "| 8 | 0.500 ± 0.000 |" in text
    assert "| vanilla | 0.300 ± 0.000 | 0.600 ± 0.000 |" in text
    assert "| kernel | x |" in text
    assert png.stat().st_size > 10000
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_empty_csv_is_an_error(tmp_path):
    csv = tmp_path / "e.csv"
    csv.write_text(header())
    r = run(["python3", RES, str(csv)])
    assert r.returncode != 0
    assert "no rows" in r.stderr


def test_workload_tables_bandwidth_and_cpu_per_gb(tmp_path):
    csv = tmp_path / "w.csv"
    b = 1000 * 4096 + 24 * (2 << 20)
    rows = header()
    # "w" rows carry move seconds, "wcpu" rows the thread's CPU seconds
    for label, secs, cpu in (("cpu", 0.2, 0.2), ("dcbm", 0.1, 0.02)):
        rows += f"{label},w,24,1000,0,{b},0,{secs},{b / secs / 1e9}\n"
        rows += f"{label},wcpu,24,1000,0,{b},0,{cpu},{b / cpu / 1e9}\n"
    csv.write_text(rows)
    r = run(["python3", RES, str(csv)])
    assert r.returncode == 0, r.stderr
    gbs = b / 1e9
    assert f"| 1000 × 4K + 24 × 2M | {gbs / 0.2:.3f} ± 0.000 | {gbs / 0.1:.3f} ± 0.000 (2.00×) |" in r.stdout
    assert f"| 1000 × 4K + 24 × 2M | {0.2 / gbs:.3f} ± 0.000 | {0.02 / gbs:.3f} ± 0.000 (0.10×) |" in r.stdout
