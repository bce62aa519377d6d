# SPDX-License-Identifier: GPL-2.0
"""scripts/setup.sh and kernel/BASE."""
import os
import re
import subprocess
import time

from conftest import TOP, run

SETUP = os.path.join(TOP, "scripts", "setup.sh")


def base():
    d = {}
    for line in open(os.path.join(TOP, "kernel", "BASE")):
        m = re.match(r"^([A-Z0-9_]+)=(.*)$", line.strip())
        if m:
            d[m.group(1)] = m.group(2)
    return d


def test_base_is_complete():
    b = base()
    assert b["PACKAGE"] == "linux-source-6.12"
    assert re.match(r"^6\.12\.\d+-", b["VERSION"])
    assert re.match(r"^[0-9a-f]{64}$", b["SHA256"])
    assert b["TARBALL"].startswith("/usr/src/")


def test_setup_is_idempotent_and_quick():
    t = time.monotonic()
    r = run([SETUP])
    assert r.returncode == 0, r.stderr
    assert "installing" not in r.stdout
    assert time.monotonic() - t < 20


def test_wrong_version_gives_clear_message(tmp_path):
    b = base()
    f = tmp_path / "BASE"
    f.write_text(f"PACKAGE={b['PACKAGE']}\nVERSION=6.12.0-0\nTARBALL={b['TARBALL']}\nSHA256={b['SHA256']}\n")
    r = run([SETUP], env=dict(os.environ, MEMACCEL_BASE=str(f), MEMACCEL_SETUP_CHECK_ONLY="1"))
    assert r.returncode == 1
    assert f"installed version is '{b['VERSION']}'" in r.stderr
    assert "expects '6.12.0-0'" in r.stderr
    assert "apt-get install" in r.stderr


def test_wrong_checksum_gives_clear_message(tmp_path):
    b = base()
    f = tmp_path / "BASE"
    f.write_text(f"PACKAGE={b['PACKAGE']}\nVERSION={b['VERSION']}\nTARBALL={b['TARBALL']}\nSHA256={'0' * 64}\n")
    r = run([SETUP], env=dict(os.environ, MEMACCEL_BASE=str(f), MEMACCEL_SETUP_CHECK_ONLY="1"))
    assert r.returncode == 1
    assert "sha256 is" in r.stderr and "0" * 64 in r.stderr


def test_python_packages_live_in_a_venv(tmp_path):
    """PEP 668: Debian's python3 refuses a system-wide pip install."""
    venv = os.path.join(TOP, "build", "venv")
    assert os.path.exists(os.path.join(venv, "pyvenv.cfg"))
    assert os.access(os.path.join(venv, "bin", "vng"), os.X_OK)
    r = run([SETUP], env=dict(os.environ, MEMACCEL_VENV=str(tmp_path / "none"),
                              MEMACCEL_SETUP_CHECK_ONLY="1"))
    assert r.returncode == 1 and "no Python venv" in r.stderr
    s = open(SETUP).read()
    assert "python3-venv" in s
    assert s.count("-m pip install") == 1 and '"$py" -m pip install' in s


def test_every_script_uses_the_venv():
    """Each entry script that runs Python or vng puts the venv first."""
    d = os.path.join(TOP, "scripts")
    for name in sorted(os.listdir(d)):
        # series.sh runs checkpatch with Debian's python3 on purpose
        # (spdxcheck.py needs python3-ply and python3-git).
        if not name.endswith(".sh") or name in ("env.sh", "setup.sh", "series.sh"):
            continue
        s = open(os.path.join(d, name)).read()
        if re.search(r"\b(python3|vng|pytest|virtme-\w+)\b", s.split("\n", 3)[-1]):
            assert '. "$top/scripts/env.sh"' in s, name
    assert "build/venv/bin" in open(os.path.join(TOP, "Makefile")).read()
    assert '"build", "venv"' in open(os.path.join(d, "vm-run")).read()


def test_every_stage_prints_its_time():
    """make test and make demo print each stage's own duration at the end
    (scripts/env.sh step / stage_times), not only the time since the start."""
    r = subprocess.run(["bash", "-c", f'. "{TOP}/scripts/env.sh"; step one; sleep 1.1; '
                        'step two; stage_times'], capture_output=True, text=True)
    lines = r.stdout.splitlines()
    # whole seconds: a 1.1 s stage shows as 1 s or 2 s
    assert lines[0] == "== one (0s)" and re.match(r"== two \([12]s\)$", lines[1])
    assert re.match(r"stage times \(total [12]s\):$", lines[2])
    assert re.match(r"\s+[12]s  one$", lines[3]) and re.match(r"\s+[01]s  two$", lines[4])
    for name in ("test.sh", "demo.sh"):
        s = open(os.path.join(TOP, "scripts", name)).read()
        assert "stage_times" in s and "\nstep " in s, name
