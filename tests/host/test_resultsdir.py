# SPDX-License-Identifier: GPL-2.0
"""Each benchmark run writes results/<date>-<commit>/ and moves results/latest."""
import os
import subprocess

from conftest import TOP

ENV_SH = os.path.join(TOP, "scripts", "env.sh")


def new_dir(repo):
    r = subprocess.run(["bash", "-c", f". {ENV_SH}; new_results_dir"], capture_output=True,
                       text=True, env=dict(os.environ, MEMACCEL_TOP=str(repo)))
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_run_dirs_and_latest(tmp_path):
    g = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(g + ["init", "-q"], check=True)
    (tmp_path / "f").write_text("1\n")
    subprocess.run(g + ["add", "f"], check=True)
    subprocess.run(g + ["commit", "-q", "-m", "x"], check=True)
    head = subprocess.run(g + ["rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    d1 = new_dir(tmp_path)
    assert os.path.isdir(d1) and os.path.basename(d1).endswith("-" + head)
    assert os.readlink(tmp_path / "results" / "latest") == os.path.basename(d1)
    (tmp_path / "f").write_text("2\n")
    subprocess.run(["sleep", "1.1"])
    d2 = new_dir(tmp_path)
    assert d2 != d1 and d2.endswith(f"-{head}-dirty") and os.path.isdir(d1)
    assert os.readlink(tmp_path / "results" / "latest") == os.path.basename(d2)
