# SPDX-License-Identifier: GPL-2.0
"""The README stays true: every environment knob the scripts read is in its
table, every make target it names exists, and every file it points at is
there."""
import os
import re
import subprocess

from conftest import TOP

# Set by the harness itself for the guest or between its own scripts.
INTERNAL = {"MEMACCEL_TOP", "MEMACCEL_PARTIAL_SERIES", "MEMACCEL_TOPOLOGY",
            "MEMACCEL_ENGINE", "MEMACCEL_MM_CATEGORIES", "MEMACCEL_KTAP_OUT",
            "MEMACCEL_TEST_NAME"}


def readme():
    return open(os.path.join(TOP, "README.md")).read()


def tracked(*globs):
    out = subprocess.run(["git", "-C", TOP, "ls-files", *globs], capture_output=True,
                         text=True, check=True).stdout.split()
    return [os.path.join(TOP, f) for f in out]


def test_every_knob_is_documented():
    knobs = set()
    for f in tracked("scripts", "tests/vm", "bench", "Makefile"):
        knobs |= set(re.findall(r"\bMEMACCEL_[A-Z_]+[A-Z]\b", open(f, errors="replace").read()))
    missing = sorted(knobs - INTERNAL - set(re.findall(r"`(MEMACCEL_[A-Z_]+)`", readme())))
    assert not missing, f"README's knob table lacks {missing}"


def test_make_targets_exist():
    mk = open(os.path.join(TOP, "Makefile")).read()
    targets = set(re.findall(r"^([a-z][a-z-]*):", mk, re.M))
    named = set(re.findall(r"(?:^|`)make ([a-z][a-z-]+)", readme(), re.M))
    assert named - targets == set(), f"README names make targets that do not exist: {named - targets}"


def test_paths_exist():
    for p in re.findall(r"`((?:docs|scripts|tools|tests|bench|kernel)/[A-Za-z0-9_./-]+)`", readme()):
        assert os.path.exists(os.path.join(TOP, p.rstrip("/"))), p
