# SPDX-License-Identifier: GPL-2.0
"""memaccelctl against a fake /sys tree: display, JSON, selection and the
errors it gives before (usage) and after (kernel refusal) writing. The real
sysfs files are exercised in the VM (tests/vm/offload.sh)."""
import json
import os

import pytest

from conftest import TOP, run

CTL = os.path.join(TOP, "tools", "memaccelctl", "memaccelctl")


@pytest.fixture
def sysfs(tmp_path):
    mo = tmp_path / "kernel/mm/migrate_offload"
    (mo / "stats").mkdir(parents=True)
    (mo / "engine").write_text("cpu [mtcopy]\n")
    (mo / "reasons").write_text("compaction,syscall\n")
    (mo / "batch_max").write_text("512\n")
    for i, s in enumerate(("batches", "folios", "bytes", "fallbacks", "errors")):
        (mo / "stats" / s).write_text(f"{i * 10}\n")
    par = tmp_path / "module/mtcopy/parameters"
    par.mkdir(parents=True)
    (par / "threads").write_text("4\n")
    eng = mo / "engines/mtcopy"
    eng.mkdir(parents=True)
    (eng / "split_batches").write_text("7\n")
    return tmp_path


def ctl(root, *args):
    return run([CTL, "--sysfs", str(root), *args])


def test_show(sysfs):
    r = ctl(sysfs)
    assert r.returncode == 0, r.stderr
    assert "engine:    cpu [mtcopy]" in r.stdout
    assert "reasons:   compaction,syscall" in r.stdout
    assert "threads = 4" in r.stdout
    assert "split_batches: 7" in r.stdout
    assert "0 batches, 10 folios" in r.stdout
    assert "30 CPU fallbacks, 40 engine errors" in r.stdout


def test_json(sysfs):
    r = ctl(sysfs, "--json")
    st = json.loads(r.stdout)
    assert st["engine"] == "mtcopy" and st["engines"] == ["cpu", "mtcopy"]
    assert st["reasons"] == ["compaction", "syscall"]
    assert st["batch_max"] == 512
    assert st["knobs"] == {"mtcopy": {"threads": "4"}}
    assert st["engine_stats"] == {"mtcopy": {"split_batches": 7}}
    assert st["stats"]["fallbacks"] == 30


def test_json_no_reasons(sysfs):
    (sysfs / "kernel/mm/migrate_offload/reasons").write_text("none\n")
    assert json.loads(ctl(sysfs, "--json").stdout)["reasons"] == []


def test_select_and_set(sysfs):
    mo = sysfs / "kernel/mm/migrate_offload"
    assert ctl(sysfs, "engine", "cpu").returncode == 0
    assert (mo / "engine").read_text() == "cpu"
    assert ctl(sysfs, "reasons", "numa,demotion").returncode == 0
    assert (mo / "reasons").read_text() == "numa,demotion"
    assert ctl(sysfs, "batch-max", "4096").returncode == 0
    assert (mo / "batch_max").read_text() == "4096"
    assert ctl(sysfs, "set", "mtcopy.threads=2").returncode == 0
    assert (sysfs / "module/mtcopy/parameters/threads").read_text() == "2"


@pytest.mark.parametrize("args,code,msg", [
    (["engine", "dcbm"], 1, "no engine 'dcbm'; registered: cpu mtcopy (modprobe dcbm first?)"),
    (["reasons", "syscall,bogus"], 2, "unknown reason(s) 'bogus'"),
    (["reasons", "syscall,,numa"], 2, "unknown reason(s) ''"),
    (["batch-max", "0"], 2, "out of range"),
    (["batch-max", "40000"], 2, "out of range"),
    (["batch-max", "12k"], 2, "not a number"),
    (["set", "mtcopy.threads"], 2, "expected ENGINE.KNOB=VALUE"),
    (["set", "mtcopy.nosuch=1"], 1, "has no knob 'nosuch'"),
    (["set", "dcbm.channels=2"], 1, "'dcbm' is not loaded"),
    (["engine"], 2, "needs a value"),
])
def test_errors_leave_state(sysfs, args, code, msg):
    before = ctl(sysfs, "--json").stdout
    r = ctl(sysfs, *args)
    assert r.returncode == code, (r.stdout, r.stderr)
    assert msg in r.stderr
    assert ctl(sysfs, "--json").stdout == before


def test_write_failure_reported(sysfs):
    # A write the system refuses (here: the path is a directory) is one
    # line on stderr and exit status 1.
    f = sysfs / "kernel/mm/migrate_offload/batch_max"
    f.unlink()
    f.mkdir()
    r = ctl(sysfs, "batch-max", "64")
    assert r.returncode == 1
    assert r.stderr.startswith("memaccelctl: batch_max: ")


def test_not_a_memaccel_kernel(tmp_path):
    r = ctl(tmp_path)
    assert r.returncode == 1
    assert "CONFIG_MIGRATE_OFFLOAD" in r.stderr


@pytest.fixture
def tiering(sysfs):
    t = sysfs / "kernel/mm/migrate_offload/tiering"
    (t / "stats").mkdir(parents=True)
    for k, v in (("promote_batch", 0), ("promote_batch_kb", 256),
                 ("promote_delay_ms", 10), ("promote_queue_kb", 4096)):
        (t / k).write_text(f"{v}\n")
    for i, k in enumerate(("promote_queued", "promote_pages")):
        (t / "stats" / k).write_text(f"{i + 5}\n")
    return sysfs


def test_tiering_show_and_set(tiering):
    r = ctl(tiering)
    assert "promote_batch_kb = 256" in r.stdout
    assert "promote_pages: 6" in r.stdout
    st = json.loads(ctl(tiering, "--json").stdout)
    assert st["tiering"]["knobs"]["promote_delay_ms"] == 10
    assert st["tiering"]["stats"]["promote_queued"] == 5
    r = ctl(tiering, "tiering")
    assert r.returncode == 0 and "promote_queue_kb = 4096" in r.stdout
    assert ctl(tiering, "tiering", "promote_batch=1").returncode == 0
    t = tiering / "kernel/mm/migrate_offload/tiering"
    assert (t / "promote_batch").read_text() == "1"


def test_tiering_errors(sysfs, tiering):
    r = ctl(tiering, "tiering", "promote_batch")
    assert r.returncode == 2 and "expected KNOB=VALUE" in r.stderr
    r = ctl(tiering, "tiering", "bogus=1")
    assert r.returncode == 1 and "no knob 'bogus'" in r.stderr


def test_tiering_absent(sysfs):
    assert json.loads(ctl(sysfs, "--json").stdout)["tiering"] is None
    r = ctl(sysfs, "tiering")
    assert r.returncode == 1 and "CONFIG_MIGRATE_TIERING" in r.stderr


HIST = """# event histogram
#
# trigger info: hist:keys=reason,nr_folios.log2:vals=hitcount,nr_pages:sort=reason,nr_folios.log2:size=2048 [active]
#

{ reason:          0, nr_folios: ~ 2^4  } hitcount:          1  nr_pages:         14
{ reason:          5, nr_folios: ~ 2^0  } hitcount:      66194  nr_pages:      66194
{ reason:         12, nr_folios: ~ 2^9  } hitcount:          2  nr_pages:       1024

Totals:
    Hits: 66197
"""


def test_batch_sizes(sysfs):
    ev = sysfs / "kernel/tracing/events/migrate/mm_migrate_batch"
    ev.mkdir(parents=True)
    (ev / "trigger").write_text("")
    assert ctl(sysfs, "batch-sizes", "start").returncode == 0
    assert (ev / "trigger").read_text().startswith("hist:keys=reason,nr_folios.log2")
    r = ctl(sysfs, "batch-sizes", "show")
    assert r.returncode == 1 and "CONFIG_HIST_TRIGGERS" in r.stderr
    (ev / "hist").write_text(HIST)
    lines = ctl(sysfs, "batch-sizes", "show").stdout.splitlines()
    assert lines[1].split() == ["compaction", "16-31", "1", "14"]
    assert lines[2].split() == ["numa", "1", "66194", "66194"]
    assert lines[3].split() == ["reason12", "512-1023", "2", "1024"]
    assert ctl(sysfs, "batch-sizes", "stop").returncode == 0
    assert (ev / "trigger").read_text().startswith("!hist:")
    assert ctl(sysfs, "batch-sizes", "go").returncode == 2


def test_batch_sizes_no_tracefs(sysfs):
    r = ctl(sysfs, "batch-sizes", "show")
    assert r.returncode == 1 and "tracefs not mounted" in r.stderr
