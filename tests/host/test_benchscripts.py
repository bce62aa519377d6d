# SPDX-License-Identifier: GPL-2.0
"""bench/engines.sh, the guest side of make demo's engine runs, outside a
guest: with the engine helpers stubbed and a fake migbench, it must start
its CSV afresh (vm-run runs a guest command again after a crash, and a
crashed attempt's rows must not stay), interleave the engines round by
round, and hold the TLB-alias placement for the whole run, stopping the
holder at the end (bench/placement.sh), unless MIGBENCH_PLACEMENT=any."""
import os
import shutil
import stat
import subprocess

import pytest

from conftest import TOP

STUB_LIB = """\
MO=$TOP/mo
MTCOPY=$TOP/mtcopy
mo_select() { echo "$1" >"$MO/engine"; }
mo_stats() { echo stub; }
trace_events() { return 1; }
"""

FAKE_MIGBENCH = """\
#!/bin/bash
# --hold-placement: log it, say so, and wait for SIGTERM; else append one
# row: label,first-rep
if [ "$1" = --hold-placement ]; then
	trap 'echo released >>"$TOP/events"; exit 0' TERM
	echo hold >>"$TOP/events"
	readlink /proc/$$/fd/1 >"$TOP/holder-log"
	echo "placement held: fake"
	while :; do sleep 0.05; done
fi
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


@pytest.mark.parametrize("placement", ["hold", "any"])
def test_engines_sh_starts_afresh_and_interleaves(tmp_path, placement):
    os.makedirs(tmp_path / "bench")
    os.makedirs(tmp_path / "tests" / "vm" / "lib")
    os.makedirs(tmp_path / "tools" / "migbench")
    os.makedirs(tmp_path / "mo")
    for f in ("engines.sh", "placement.sh"):
        shutil.copy(os.path.join(TOP, "bench", f), tmp_path / "bench")
    (tmp_path / "tests" / "vm" / "lib" / "engines.sh").write_text(STUB_LIB)
    mb = tmp_path / "tools" / "migbench" / "migbench"
    mb.write_text(FAKE_MIGBENCH)
    mb.chmod(mb.stat().st_mode | stat.S_IEXEC)
    csv = tmp_path / "engines.csv"
    csv.write_text("stale row of a crashed attempt\n")
    tmp = tmp_path / "tmp"
    os.makedirs(tmp)
    env = dict(os.environ, TOP=str(tmp_path), MIGBENCH_ARGS="--reps 2",
               MIGBENCH_PLACEMENT=placement, TMPDIR=str(tmp))
    r = subprocess.run(["bash", str(tmp_path / "bench" / "engines.sh"), str(csv),
                        "cpu", "mtcopy-2", "mtcopy-2s", "mtcopy-2w"],
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    rows = csv.read_text().split()
    assert rows == ["cpu,0", "mtcopy-2T,0", "mtcopy-2T-split,0", "mtcopy-2T-whole,0",
                    "cpu,1", "mtcopy-2T,1", "mtcopy-2T-split,1", "mtcopy-2T-whole,1"], rows
    events = tmp_path / "events"
    if placement == "hold":
        assert "placement held: fake" in r.stdout
        assert events.read_text().split() == ["hold", "released"]
    else:
        assert not events.exists()
    # The holder's log is this run's own file under TMPDIR, gone at the
    # end: a fixed /tmp/placement-hold.log left by an earlier run was read
    # as "held" before the holder's redirection emptied it (CI of 6d168ec).
    if placement == "hold":
        log = (tmp_path / "holder-log").read_text().strip()
        assert os.path.dirname(log) == str(tmp), log
    assert os.listdir(tmp) == [], os.listdir(tmp)


@pytest.mark.parametrize("awk", [a for a in ("mawk", "gawk", "awk") if shutil.which(a)])
def test_xphases_sums_past_two_seconds(tmp_path, awk):
    """bench/xphases.awk sums mm_exchange_batch phases per folio size; a
    round of a slow engine spends more than 2^31 ns swapping, where mawk's
    %d would print 2147483647 (the dcbm staging figures of s11 and of the
    first full-node boot were clamped so)."""
    line = ("migbench-1 [000] ..... 1.0: mm_exchange_batch: reason=syscall_or_cpuset "
            "pairs=64 exchanged=64 pages=128 unmap_ns=1000 flush_ns=10 freeze_ns=20 "
            "swap_ns=1500000000 remap_ns=300\n")
    trace = tmp_path / "trace"
    trace.write_text("# tracer: nop\n" + line * 3 + line.replace("exchanged=64", "exchanged=0"))
    r = subprocess.run([awk, "-v", "eng=dcbm-1-staging", "-v", "rep=2", "-v", "page=4096",
                        "-f", os.path.join(TOP, "bench", "xphases.awk"), str(trace)],
                       capture_output=True, text=True, check=True)
    assert r.stdout == "dcbm-1-staging,2,4096,3,192,3000,30,60,4500000000,900\n", r.stdout
