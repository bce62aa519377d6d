# SPDX-License-Identifier: GPL-2.0
"""scripts/series.sh on a small stand-in kernel tree: export, match, check."""
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import TOP, run

SERIES = os.path.join(TOP, "scripts", "series.sh")
KTAP = os.path.join(TOP, "scripts", "ktap.py")
KTREE = os.path.join(TOP, "build", "linux")
CHECKPATCH_FILES = ("scripts/checkpatch.pl", "scripts/spelling.txt", "scripts/const_structs.checkpatch")
TOPLEVEL = ("COPYING", "CREDITS", "Kbuild", "MAINTAINERS", "Makefile", "README")
TOPDIRS = ("Documentation", "arch", "include", "drivers", "fs", "init", "ipc", "kernel", "lib", "scripts")


def git(tree, *args):
    r = run(["git", "-C", str(tree), *args])
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture
def env(tmp_path):
    if not os.path.exists(os.path.join(KTREE, "scripts", "checkpatch.pl")):
        pytest.skip("build/linux not prepared (make kernel-tree)")
    tree = tmp_path / "linux"
    for d in TOPDIRS:
        (tree / d).mkdir(parents=True)
    for f in TOPLEVEL:
        (tree / f).write_text("x\n")
    for f in CHECKPATCH_FILES:
        shutil.copy(os.path.join(KTREE, f), tree / f)
    (tree / "mm").mkdir()
    (tree / "mm" / "a.c").write_text("// SPDX-License-Identifier: GPL-2.0\nint a;\n")
    git(tree, "init", "-q", "-b", "main")
    git(tree, "add", "-A")
    git(tree, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base")
    git(tree, "tag", "memaccel-base")
    kdir = tmp_path / "kernel"
    (kdir / "patches").mkdir(parents=True)
    (kdir / "series").write_text("# test series\n")
    e = dict(os.environ, KTREE=str(tree), KSERIES=str(kdir))
    return tree, kdir, e


def commit(tree, path, text, msg):
    (tree / path).write_text(text)
    git(tree, "add", "-A")
    git(tree, "-c", "user.name=Test Dev", "-c", "user.email=dev@example.com", "commit", "-q",
        "-m", msg, "-m", "Explain why.\n\nSigned-off-by: Test Dev <dev@example.com>")


def test_export_match_check(env):
    tree, kdir, e = env
    commit(tree, "mm/a.c", "// SPDX-License-Identifier: GPL-2.0\nint a = 1;\n", "mm: set a")
    r = run([SERIES, "export"], env=e)
    assert r.returncode == 0, r.stderr
    assert (kdir / "series").read_text().splitlines() == ["# test series", "0001-mm-set-a.patch"]
    assert run([SERIES, "matches"], env=e).returncode == 0
    r = run([SERIES, "check"], env=e)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[:1] == ["1..3"]
    assert "ok 1 - series applies" in r.stdout and "ok 3 - checkpatch --strict 0001" in r.stdout
    # Exporting twice gives identical files (no commit ids, no dates that move).
    before = (kdir / "patches" / "0001-mm-set-a.patch").read_text()
    run([SERIES, "export"], env=e)
    assert (kdir / "patches" / "0001-mm-set-a.patch").read_text() == before


def test_tree_ahead_of_export_is_caught(env):
    tree, kdir, e = env
    commit(tree, "mm/a.c", "// SPDX-License-Identifier: GPL-2.0\nint a = 1;\n", "mm: set a")
    run([SERIES, "export"], env=e)
    commit(tree, "mm/a.c", "// SPDX-License-Identifier: GPL-2.0\nint a = 2;\n", "mm: set a again")
    assert run([SERIES, "matches"], env=e).returncode == 1
    r = run([SERIES, "check"], env=e)
    assert r.returncode == 1 and "not ok 2 - kernel/patches differs" in r.stdout


def test_checkpatch_violation_is_caught(env):
    tree, kdir, e = env
    commit(tree, "mm/a.c", "// SPDX-License-Identifier: GPL-2.0\nint a = 1;  \nint  b ;\n", "mm: bad style")
    run([SERIES, "export"], env=e)
    r = run([SERIES, "check"], env=e)
    assert r.returncode == 1
    assert re.search(r"^not ok 3 - checkpatch --strict 0001", r.stdout, re.M)


def test_series_that_does_not_apply_is_caught(env):
    tree, kdir, e = env
    commit(tree, "mm/a.c", "// SPDX-License-Identifier: GPL-2.0\nint a = 1;\n", "mm: set a")
    run([SERIES, "export"], env=e)
    p = kdir / "patches" / "0001-mm-set-a.patch"
    p.write_text(p.read_text().replace("-int a;", "-int zzz;"))
    r = run([SERIES, "check"], env=e)
    assert r.returncode == 1
    assert "not ok 1 - series does not apply" in r.stdout


def test_export_refuses_dirty_tree(env):
    tree, kdir, e = env
    (tree / "mm" / "a.c").write_text("dirty\n")
    r = run([SERIES, "export"], env=e)
    assert r.returncode == 1 and "uncommitted" in r.stderr


def stage(e, tmp_path):
    """make test's series stage (scripts/test.sh): series.sh tap into a
    file, then the sum over it that decides make test's verdict."""
    tap = tmp_path / "series.tap"
    with open(tap, "w") as f:
        subprocess.run([SERIES, "tap"], env=e, stdout=f, stderr=subprocess.STDOUT)
    return run([sys.executable, KTAP, str(tap)])


@pytest.mark.parametrize("breakage", ["checkpatch", "does-not-apply", "stale-export"])
def test_failing_series_fails_the_test_stage(env, tmp_path, breakage):
    tree, kdir, e = env
    good = "// SPDX-License-Identifier: GPL-2.0\nint a = 1;\n"
    bad = "// SPDX-License-Identifier: GPL-2.0\nint a = 1;  \nint  b ;\n"
    commit(tree, "mm/a.c", bad if breakage == "checkpatch" else good, "mm: set a")
    run([SERIES, "export"], env=e)
    if breakage == "does-not-apply":
        p = kdir / "patches" / "0001-mm-set-a.patch"
        p.write_text(p.read_text().replace("-int a;", "-int zzz;"))
    elif breakage == "stale-export":
        commit(tree, "mm/a.c", good.replace("1", "2"), "mm: set a again")
    r = stage(e, tmp_path)
    assert r.returncode == 1, r.stdout
    assert re.search(r"^\d+ passed, [1-9]\d* failed", r.stdout, re.M), r.stdout


def test_good_series_passes_the_test_stage(env, tmp_path):
    tree, kdir, e = env
    commit(tree, "mm/a.c", "// SPDX-License-Identifier: GPL-2.0\nint a = 1;\n", "mm: set a")
    run([SERIES, "export"], env=e)
    r = stage(e, tmp_path)
    assert r.returncode == 0, r.stdout
    assert "3 passed, 0 failed" in r.stdout


def test_series_stage_without_a_tree_fails(env, tmp_path):
    tree, kdir, e = env
    e = dict(e, KTREE=str(tmp_path / "no-such-tree"))
    r = stage(e, tmp_path)
    assert r.returncode == 1 and "0 passed, 1 failed" in r.stdout, r.stdout


def test_make_test_uses_the_counted_stage():
    """The stage above is the one scripts/test.sh runs and sums."""
    s = open(os.path.join(TOP, "scripts", "test.sh")).read()
    assert 'scripts/series.sh tap >"$out/series.tap"' in s
    assert "find \"$out\" -name '*.tap'" in s
