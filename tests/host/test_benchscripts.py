# SPDX-License-Identifier: GPL-2.0
"""bench/engines.sh, the guest side of make demo's engine runs, outside a
guest: with the engine helpers stubbed and a fake migbench, it must start
its CSV afresh (vm-run runs a guest command again after a crash, and a
crashed attempt's rows must not stay), and interleave the engines round
by round."""
import os
import shutil
import stat
import subprocess

from conftest import TOP

STUB_LIB = """\
MO=$TOP/mo
MTCOPY=$TOP/mtcopy
mo_select() { echo "$1" >"$MO/engine"; }
mo_stats() { echo stub; }
"""

FAKE_MIGBENCH = """\
#!/bin/sh
# append one row: label,first-rep
label= csv= rep=
while [ $# -gt 0 ]; do
	case $1 in
	--label) label=$2; shift ;;
	--csv) csv=$2; shift ;;
	--first-rep) rep=$2; shift ;;
	esac
	shift
done
echo "$label,$rep" >>"$csv"
"""


def test_engines_sh_starts_afresh_and_interleaves(tmp_path):
    os.makedirs(tmp_path / "bench")
    os.makedirs(tmp_path / "tests" / "vm" / "lib")
    os.makedirs(tmp_path / "tools" / "migbench")
    os.makedirs(tmp_path / "mo")
    shutil.copy(os.path.join(TOP, "bench", "engines.sh"), tmp_path / "bench")
    (tmp_path / "tests" / "vm" / "lib" / "engines.sh").write_text(STUB_LIB)
    mb = tmp_path / "tools" / "migbench" / "migbench"
    mb.write_text(FAKE_MIGBENCH)
    mb.chmod(mb.stat().st_mode | stat.S_IEXEC)
    csv = tmp_path / "engines.csv"
    csv.write_text("stale row of a crashed attempt\n")
    env = dict(os.environ, TOP=str(tmp_path), MIGBENCH_ARGS="--reps 2")
    r = subprocess.run(["bash", str(tmp_path / "bench" / "engines.sh"), str(csv),
                        "cpu", "mtcopy-2", "mtcopy-2s"],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = csv.read_text().split()
    assert rows == ["cpu,0", "mtcopy-2T,0", "mtcopy-2T-split,0",
                    "cpu,1", "mtcopy-2T,1", "mtcopy-2T-split,1"], rows
