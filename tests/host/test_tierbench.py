# SPDX-License-Identifier: GPL-2.0
"""tools/tierbench's argument checks and bench/tiering-report.py's table:
medians over runs, a shift that never reached 90 % counted as the period,
and the data verdict of every run."""
import os
import sys

import pytest

from conftest import TOP, run

TB = os.path.join(TOP, "tools", "tierbench", "tierbench")
REPORT = os.path.join(TOP, "bench", "tiering-report.py")


@pytest.mark.parametrize("args", [
    ["--hot", "3M"],                               # not a multiple of 2 MB
    ["--total", "64M", "--hot", "32M", "--fast-init", "64M"],  # no room
    ["--period", "0"],
    ["--shifts", "0"],
    ["extra"],
])
def test_bad_args(tools_built, args):
    r = run([TB] + args)
    assert r.returncode == 1
    assert "usage: tierbench" in r.stderr


HEAD = ("config\trun\tpgpromote_success\tpgpromote_candidate\tpgdemote_kswapd"
        "\tpgdemote_direct\tpgexchange_success\tpgmigrate_success"
        "\tnuma_hint_faults\tkthread_s\tsummary\n")


def tb_csv(t90, late, data="ok", period=30, misplaced=None, memcpy=None):
    rows = "".join(f"{t:.1f},{int(t // period)},{r},0,0,0,0,0/0/0\n"
                   for t, r in [(1, 0.1), (2, 0.5), (31, 0.95)])
    return (f"# tierbench: 256 MiB, hot 32 MiB in 6 windows, 64 MiB placed on node 0, "
            f"rest on node 2, 4K, period {period} s, 3 shifts\n"
            "t,shift,residency,fast_pages,moved,wasted,writes_per_s,nodes\n" + rows +
            f"summary t90={t90} residency_late={late} moved=10 wasted=2"
            + ("" if misplaced is None else f" up_hot=7 misplaced={misplaced}")
            + ("" if memcpy is None else f" memcpy_MBps={memcpy}")
            + f" data={data}\n")


def test_report(tmp_path):
    d = tmp_path
    (d / "runs.tsv").write_text(
        HEAD +
        "a\t1\t100\t0\t4\t1\t0\t0\t7\t1.50\tsummary cpu_kpromoted=1.20\n"
        "a\t2\t300\t0\t6\t1\t0\t0\t9\t2.50\tsummary cpu_kpromoted=0.40\n"
        "b\t1\t0\t0\t0\t0\t8\t0\t0\t0.10\tsummary\n")
    (d / "a-1.csv").write_text(tb_csv("10.0/-/20.0", 0.5, misplaced=3, memcpy=150))
    (d / "a-2.csv").write_text(tb_csv("12.0/14.0/16.0", 0.7, misplaced=5, memcpy=210))
    (d / "b-1.csv").write_text(tb_csv("-/-/-", 0.0, data="LOST"))
    png = d / "r.png"
    r = run([sys.executable, REPORT, str(d), "--png", str(png), "--meta", "k=v"])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "- k: v"
    a = next(x for x in lines if x.startswith("| a |"))
    b = next(x for x in lines if x.startswith("| b |"))
    cells = [c.strip() for c in a.strip("|").split("|")]
    # T90 over 10, 30 (never: the period), 20, 12, 14, 16: median 15
    assert cells[2] == "15.0 (10.0-30.0)"
    assert cells[3] == "1 of 6"
    assert cells[4] == "0.60 (0.50-0.70)"
    assert cells[7] == "4 (3-5)"             # misplaced
    assert cells[8] == "200 (100-300)"       # pgpromote_success
    assert cells[9] == "6 (5-7)"             # both pgdemote counters
    assert cells[-1] == "ok"
    assert cells[-3] == "0.8 (0.4-1.2)"      # kpromoted CPU s
    assert cells[-2] == "180 (150-210)"      # memcpy MB/s
    cells = [c.strip() for c in b.strip("|").split("|")]
    assert cells[3] == "3 of 3" and cells[-1] == "LOST"
    assert cells[-3] == "-" and cells[-2] == "-"  # older runs
    assert cells[7] == "-"                   # a tierbench without misplaced
    assert png.stat().st_size > 1000


def tr(ts, ev, rest):
    return f"  tierbench-123  [000] .....  {ts:.6f}: {ev}: {rest}\n"


def test_report_intervals(tmp_path):
    """Policy intervals between a shift's first sample and its first at 90 %:
    shift 0 reaches 90 % after intervals at 1.5 and 2.5 (the one at 0.5
    ends before its first sample, node 1's does not count), shift 1 never."""
    d = tmp_path
    (d / "runs.tsv").write_text(
        HEAD + "p\t1\t0\t0\t0\t0\t8\t0\t0\t0.10\tsummary\n")
    (d / "p-1.csv").write_text(tb_csv("2.0/-", 0.5))
    (d / "p-1.trace").write_text(
        tr(10.5, "mm_tier_policy", "nid=0 scanned=9 hot=0 promoted=0 exchanged=0")
        + tr(11.0, "tracing_mark_write", "tierbench t=1.0 shift=0 residency=0.0000")
        + tr(11.5, "mm_tier_policy", "nid=0 scanned=9 hot=40 promoted=30 exchanged=0")
        + tr(11.6, "mm_tier_policy", "nid=1 scanned=9 hot=1 promoted=1 exchanged=0")
        + tr(12.0, "tracing_mark_write", "tierbench t=2.0 shift=0 residency=0.5000")
        + tr(12.5, "mm_tier_policy", "nid=0 scanned=9 hot=50 promoted=50 exchanged=0")
        + tr(13.0, "tracing_mark_write", "tierbench t=3.0 shift=0 residency=0.9500")
        + tr(13.5, "mm_tier_policy", "nid=0 scanned=9 hot=0 promoted=0 exchanged=0")
        + tr(41.0, "tracing_mark_write", "tierbench t=31.0 shift=1 residency=0.1000")
        + tr(41.5, "tracing_mark_write", "something else")
        + tr(42.0, "tracing_mark_write", "tierbench t=32.0 shift=1 residency=0.2000"))
    r = run([sys.executable, REPORT, str(d)])
    assert r.returncode == 0, r.stderr
    row = next(x for x in r.stdout.splitlines()
               if x.startswith("| p |") and "40/30" in x)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:] == ["2", "2", "1", "40/30"]
