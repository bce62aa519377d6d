# SPDX-License-Identifier: GPL-2.0
"""migcheck's command line: bad input is refused before anything is moved.
(The integrity checks themselves run in the VM: tests/vm/offload.sh.)"""
import os

import pytest

from conftest import TOP, run

MC = os.path.join(TOP, "tools", "migcheck", "migcheck")


pytestmark = pytest.mark.usefixtures("tools_built")


@pytest.mark.parametrize("args", [
    ["--size", "3K"],
    ["--size", "4M"],
    ["--total", "3M"],
    ["--writers", "9"],
    ["--readers", "-1"],
    ["--fragment"],
    ["--bogus", "1"],
    ["--size"],
    ["--await", "0", "--cold-touch", "100"],            # no --cold
    ["--await", "0", "--cold", "2M", "--cold-touch", "-1"],
])
def test_bad_args(args):
    r = run([MC, *args])
    assert r.returncode == 1
    assert "usage: migcheck" in r.stderr


def test_bad_size_unit():
    r = run([MC, "--size", "16Q"])
    assert r.returncode == 1 and "bad size '16Q'" in r.stderr
