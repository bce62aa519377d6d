# SPDX-License-Identifier: GPL-2.0
import os
import subprocess

import pytest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def top():
    return TOP


def run(cmd, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("text", True)
    return subprocess.run(cmd, **kw)


@pytest.fixture(scope="session")
def tools_built():
    """The C tools in tools/, built once per session."""
    r = run(["make", "-s", "-C", os.path.join(TOP, "tools")])
    assert r.returncode == 0, r.stderr
