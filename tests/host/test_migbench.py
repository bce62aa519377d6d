# SPDX-License-Identifier: GPL-2.0
"""migbench's command line: bad input is refused before anything is measured.
(Measurement and verification are tested in the VM: tests/vm/migbench.sh.)"""
import os

import pytest

from conftest import TOP, run

MB = os.path.join(TOP, "tools", "migbench", "migbench")


pytestmark = pytest.mark.usefixtures("tools_built")


def test_help():
    r = run([MB, "--help"])
    assert r.returncode == 0 and "--sizes" in r.stdout


@pytest.mark.parametrize("args,msg", [
    (["--sizes", "3K"], "power of two"),
    (["--sizes", "4M"], "power of two"),
    (["--sizes", "64Q"], "bad size"),
    (["--counts", "0"], "bad list element"),
    (["--tables", "c"], "unknown table"),
    (["--total", "3M"], "multiple of 2M"),
    (["--src", "1", "--dst", "1"], "different nodes"),
    (["--threads", "0"], "--threads"),
    (["--first-rep", "-1"], "--first-rep"),
    (["--label", "a,b"], "must not contain"),
    (["--reps"], "missing value"),
    (["--bogus", "1"], "unknown option"),
])
def test_bad_input(args, msg):
    r = run([MB] + args)
    assert r.returncode == 1
    assert msg in r.stderr


def test_csv_header_matches_results_reader():
    """Every column migbench writes is one results.py reads, and back."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("results", os.path.join(TOP, "scripts", "results.py"))
    res = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(res)
    r = run([MB, "--csv-header"])
    cols = r.stdout.strip().split(",")
    assert cols[:2] == ["label", "table"]
    assert sorted(cols[2:]) == sorted(res.INT_COLS + res.FLOAT_COLS)


@pytest.mark.parametrize("tool", ["migbench/migbench.c", "migcheck/migcheck.c", "lib/mmtest.c"])
def test_builds_where_the_headers_have_mpol_mf_exchange(tool):
    """The tools define MPOL_MF_EXCHANGE (tools/lib/mmtest.h) only if the
    system's headers do not; with headers of a kernel that has it (here:
    -D), nothing else may drop out with the fallback definition
    (migbench's pin_calls() once sat inside that #ifndef)."""
    r = run(["cc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
             "-DMPOL_MF_EXCHANGE=(1 << 8)", os.path.join(TOP, "tools", tool)])
    assert r.returncode == 0, r.stderr
