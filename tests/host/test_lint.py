# SPDX-License-Identifier: GPL-2.0
"""make lint in the host stage: shellcheck and ruff find nothing."""
import os
import shutil

import pytest

from conftest import TOP, run


def test_lint_clean():
    if not shutil.which("shellcheck"):
        pytest.fail("shellcheck missing (scripts/setup.sh installs it)")
    r = run([os.path.join(TOP, "scripts", "lint.sh")])
    assert r.returncode == 0, r.stdout + r.stderr


def test_lint_catches_a_finding(tmp_path):
    """The check can fail: a script with an unquoted expansion is reported."""
    bad = tmp_path / "bad.sh"
    bad.write_text("#!/bin/bash\nf=$1\nrm $f\n")
    r = run(["shellcheck", str(bad)])
    assert r.returncode != 0 and "SC2086" in r.stdout
