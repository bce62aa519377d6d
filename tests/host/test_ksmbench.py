# SPDX-License-Identifier: GPL-2.0
"""tools/ksmbench's argument checks (it refuses sizes that cannot give
the counters it promises) and bench/ksm-report.py's table: medians with
min-max per batch size, the ratio to batch size 1, runs that did not
converge counted as such."""
import os
import sys

import pytest

from conftest import TOP, run

KB = os.path.join(TOP, "tools", "ksmbench", "ksmbench")
REPORT = os.path.join(TOP, "bench", "ksm-report.py")


@pytest.mark.parametrize("args", [
    ["--templates", "0"],
    ["--size", "1", "--templates", "256"],          # fewer copies than 2 each
    ["--zero", "1"],
    ["--prefix", "5"],                              # not a multiple of 8
    ["--dup", "0.9", "--volatile", "0.5"],          # more than the whole
    ["--bogus"],
])
def test_bad_args(tools_built, args):
    r = run([KB] + args)
    assert r.returncode == 4
    assert "usage: ksmbench" in r.stderr


RUNS = """\
ksmbench batch=1 dedup_per_cpu_s=1000 ksmd_cpu_s=2.0 converge_s=3 ns_per_page=500 scanned=100 converged=1 batches=0 batch_deferred=0 batch_joined=0 batch_serial=0 run=1 exit=0
ksmbench batch=256 dedup_per_cpu_s=1300 ksmd_cpu_s=1.5 converge_s=2 ns_per_page=400 scanned=100 converged=1 batches=5 batch_pages=500 batch_deferred=50 batch_joined=3 batch_serial=0 run=1 exit=0
ksmbench batch=1 dedup_per_cpu_s=1200 ksmd_cpu_s=2.2 converge_s=3 ns_per_page=520 scanned=100 converged=1 batches=0 batch_deferred=0 batch_joined=0 batch_serial=0 run=2 exit=0
ksmbench batch=256 dedup_per_cpu_s=1500 ksmd_cpu_s=- converge_s=9 ns_per_page=- scanned=90 converged=0 batches=4 batch_pages=480 batch_deferred=40 batch_joined=2 batch_serial=1 run=2 exit=1
"""


def test_report(tmp_path):
    (tmp_path / "runs.txt").write_text(RUNS)
    r = run([sys.executable, REPORT, str(tmp_path)])
    assert r.returncode == 0, r.stderr
    rows = {ln.split("|")[1].strip(): ln for ln in r.stdout.splitlines()
            if ln.startswith("| 1 ") or ln.startswith("| 256 ")}
    assert "| 2 | 2 of 2 | 1100 (1000-1200) |" in rows["1"]
    assert "| 1.00x |" in rows["1"]
    assert "| 2 | 1 of 2 | 1400 (1300-1500) |" in rows["256"]
    # 1400 / 1100, then batches, and pages a batch: 500 / 5, 480 / 4
    assert "| 1.27x | 4 (4-5) | 110 (100-120) |" in rows["256"]
    # no batches at 1: no pages a batch
    assert "| 1.00x | 0 (0-0) | - |" in rows["1"]


WALK_RUNS = """\
ksmbench batch=1 dedup_per_cpu_s=1000 converged=1 batches=0 batch_walk_lookups=0 batch_walk_compares=0 run=1 exit=0
ksmbench batch=256 dedup_per_cpu_s=1300 converged=1 batches=5 batch_pages=500 batch_walk_lookups=100 batch_walk_compares=400 run=1 exit=0
ksmbench batch=256 dedup_per_cpu_s=1300 converged=1 batches=5 batch_pages=500 batch_walk_lookups=150 batch_walk_compares=300 run=2 exit=0
"""


def test_report_lookups_per_compare(tmp_path):
    (tmp_path / "runs.txt").write_text(WALK_RUNS)
    r = run([sys.executable, REPORT, str(tmp_path)])
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("| ")]
    assert lines[0].endswith("| tree lookups / compare |")
    rows = {ln.split("|")[1].strip(): ln for ln in lines[1:]}
    # 100 / 400 and 150 / 300: median 0.375, shown to two places
    assert rows["256"].endswith("| 0.38 (0.25-0.50) |")
    # no walk at batch size 1
    assert rows["1"].endswith("| - |")


ENGINE_RUNS = """\
ksmbench engine=cpu batch=1 dedup_per_cpu_s=1000 ksmd_cpu_s=2.0 helper_cpu_s=0.000 dedup_per_total_cpu_s=1000 converged=1 run=1 exit=0
ksmbench engine=mt batch=1 dedup_per_cpu_s=900 ksmd_cpu_s=2.2 helper_cpu_s=0.000 dedup_per_total_cpu_s=900 converged=1 run=1 exit=0
ksmbench engine=mt batch=256 dedup_per_cpu_s=1800 ksmd_cpu_s=1.1 helper_cpu_s=1.100 dedup_per_total_cpu_s=900 converged=1 run=1 exit=0
ksmbench engine=cpu batch=256 dedup_per_cpu_s=1100 ksmd_cpu_s=1.8 helper_cpu_s=0.000 dedup_per_total_cpu_s=1100 converged=1 run=1 exit=0
"""


def test_report_engines(tmp_path):
    """A row per engine and batch size, engines in the order of the runs,
    each batch size against the same engine's batch size 1"""
    (tmp_path / "runs.txt").write_text(ENGINE_RUNS)
    r = run([sys.executable, REPORT, str(tmp_path)])
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("| cpu ") or ln.startswith("| mt ")]
    assert [ln.split("|")[1:3] for ln in lines] == [
        [" cpu ", " 1 "], [" cpu ", " 256 "], [" mt ", " 1 "], [" mt ", " 256 "]]
    assert "| 1.10x |" in lines[1]
    # 1800 / 900 per ksmd CPU s; per KSM CPU s (helpers too) 900
    assert "| 1800 | 1.10 | 1.10 | 900 |" in lines[3]
    assert "| 2.00x |" in lines[3]


def test_report_empty(tmp_path):
    (tmp_path / "runs.txt").write_text("nothing here\n")
    r = run([sys.executable, REPORT, str(tmp_path)])
    assert r.returncode != 0
    assert "no runs" in r.stderr
