# SPDX-License-Identifier: GPL-2.0
"""scripts/setup.sh and kernel/BASE."""
import os
import re
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
