# SPDX-License-Identifier: GPL-2.0
"""scripts/vm-run against a fake vng: exit codes, output, bounded hangs."""
import os
import re

import pytest
import shlex
import signal
import stat
import subprocess
import time

from conftest import TOP, run

VMRUN = os.path.join(TOP, "scripts", "vm-run")

# The fake vng runs the --exec script on the host (the exchange directory is
# a host path), or misbehaves as FAKE_VNG says.
FAKE = """#!/usr/bin/env bash
while [ $# -gt 0 ]; do
	case "$1" in --exec) script=$2; shift ;; esac
	shift
done
echo "fake console: booting"
# FAKE_CRASHES=N: the first N boots oops before the guest command starts.
if [ -n "${FAKE_CRASHES:-}" ]; then
	n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0)
	echo $((n + 1)) >"$FAKE_COUNT"
	if [ "$n" -lt "$FAKE_CRASHES" ]; then
		echo "Oops: int3: 0000 [#1] PREEMPT SMP"
		echo "Kernel panic - not syncing: Attempted to kill the idle task!"
		exit 255
	fi
fi
# FAKE_INT3=N: the first N boots start the command, then oops on an int3;
# FAKE_INT3_BYTE is the code byte before RIP (cc: a real int3 in the text).
if [ -n "${FAKE_INT3:-}" ]; then
	n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0)
	echo $((n + 1)) >"$FAKE_COUNT"
	if [ "$n" -lt "$FAKE_INT3" ]; then
		x=$(dirname "${script#sh }")
		echo booted >"$x/booted"
		echo "[  396.5] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI"
		echo "[  396.5] CPU: 0 UID: 0 PID: 2994 Comm: migrate_offload"
		echo "[  396.5] RIP: 0010:migrate_pages_batch+0x8c9/0x1640"
		echo "[  396.5] Code: 24 8b 00 00 00 00 0f 85 02 08 00 00 ${FAKE_INT3_BYTE:-e9} <99> 04 00 00 45 31 db"
		echo "[  396.5] Kernel panic - not syncing: Fatal exception in interrupt"
		exit 255
	fi
fi
case "${FAKE_VNG:-ok}" in
hang-boot) sleep 600 ;;
die) exit 3 ;;
# the guest command starts, then the kernel panics
panic-after)
	x=$(dirname "${script#sh }")
	echo booted >"$x/booted"
	echo "Kernel panic - not syncing: bad"
	exit 255 ;;
esac
exec bash -c "$script"
"""


def env_with_fake(tmp_path, mode):
    b = tmp_path / "bin"
    b.mkdir(exist_ok=True)
    v = b / "vng"
    v.write_text(FAKE)
    v.chmod(v.stat().st_mode | stat.S_IEXEC)
    k = tmp_path / "kernel" / "arch" / "x86" / "boot"
    k.mkdir(parents=True, exist_ok=True)
    (k / "bzImage").write_text("")
    # MEMACCEL_VENV: no venv, so the fake vng is the one found
    env = dict(os.environ, PATH=f"{b}:{os.environ['PATH']}", FAKE_VNG=mode, MEMACCEL_KVM="0",
               MEMACCEL_VENV=str(tmp_path / "no-venv"), FAKE_COUNT=str(tmp_path / "boots"))
    return env, str(tmp_path / "kernel")


def vmrun(tmp_path, mode, *cmd, extra=(), **envs):
    env, kdir = env_with_fake(tmp_path, mode)
    env.update(envs)
    return run([VMRUN, "--kernel", kdir, "--xdir", str(tmp_path / "x"), "--cwd", str(tmp_path),
                *extra, "--", *cmd], env=env)


def test_exit_code_and_output_pass_through(tmp_path):
    r = vmrun(tmp_path, "ok", "sh", "-c", "echo hello from guest; exit 7")
    assert r.returncode == 7
    assert "hello from guest" in r.stdout


def test_success(tmp_path):
    r = vmrun(tmp_path, "ok", "true")
    assert r.returncode == 0


def test_long_checkout_path_keeps_the_command_line_short(tmp_path):
    """The guest command travels as a file in the exchange directory: with
    a 200-character checkout path and 17 test names the --exec argument
    (which virtme puts on the 2048-byte kernel command line) stays short,
    and the command still runs."""
    deep = tmp_path / ("d" * 100) / ("e" * 99)
    deep.mkdir(parents=True)
    assert len(str(deep)) >= 200
    names = " ".join(f"mm:category{i}@engine-{i}" for i in range(17))
    cmd = ["sh", "-c", f"echo ran {names}"]
    r = run([VMRUN, "--print-cmd", "--xdir", str(deep / "x"), "--cwd", str(deep), "--", *cmd],
            env=dict(os.environ, MEMACCEL_KVM="0"))
    assert r.returncode == 0
    args = shlex.split(r.stdout)
    exec_arg = args[args.index("--exec") + 1]
    assert "category16" not in exec_arg and len(exec_arg) < len(str(deep)) + 40
    env, kdir = env_with_fake(tmp_path, "ok")
    r = run([VMRUN, "--kernel", kdir, "--xdir", str(deep / "x"), "--cwd", str(deep), "--", *cmd],
            env=env)
    assert r.returncode == 0
    assert "ran mm:category0@engine-0" in r.stdout and "category16@engine-16" in r.stdout


def test_long_checkout_path_fits_the_kernel_command_line(tmp_path):
    """The whole kernel command line virtme builds (vng --dry-run) for make
    test's largest VM, from a 200-character checkout path, fits x86's
    2048-byte COMMAND_LINE_SIZE with room to spare. The exchange directory,
    the writable directories and the working directory are under the deep
    path; the venv and the kernel are under this checkout, so their path is
    projected to the deep one (each occurrence grows by the difference)."""
    kdir = os.path.join(TOP, "build", "kbuild-test")
    if not os.path.exists(os.path.join(kdir, "arch", "x86", "boot", "bzImage")):
        pytest.skip("no test kernel in build/kbuild-test (make kernel)")
    deep = tmp_path / ("d" * 100) / ("e" * 99)
    (deep / "x").mkdir(parents=True)
    (deep / "kselftest").mkdir()
    assert len(str(deep)) >= 200
    names = [f"mm:category{i}@engine-{i}" for i in range(17)]
    r = run([VMRUN, "--print-cmdline", "--topology", "2node-4cpu", "--kernel", kdir,
             "--xdir", str(deep / "x"), "--cwd", str(deep), "--rwdir", str(deep / "kselftest"),
             "--", "env", "MEMACCEL_TOPOLOGY=2node-4cpu", "tests/vm/run.sh",
             str(deep / "x" / "ktap"), *names],
            env=dict(os.environ, MEMACCEL_KVM="0"))
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip()
    assert "root=" in line or "rootfstype=" in line, line
    assert str(deep) not in line and "category16" not in line
    projected = len(line) + line.count(TOP) * max(0, len(str(deep)) - len(TOP))
    assert projected <= 2048 - 512, f"{projected} bytes: {line}"


def test_boot_hang_is_bounded(tmp_path):
    t = time.monotonic()
    r = vmrun(tmp_path, "hang-boot", "true", extra=("--boot-timeout", "3"))
    assert time.monotonic() - t < 30
    assert r.returncode == 125
    assert "did not reach the command" in r.stderr
    assert "fake console: booting" in r.stderr


def test_command_hang_is_bounded(tmp_path):
    t = time.monotonic()
    r = vmrun(tmp_path, "ok", "sleep", "600", extra=("--timeout", "4"))
    assert time.monotonic() - t < 30
    assert r.returncode == 124
    assert "did not finish within 4s" in r.stderr


def test_vng_dies_is_boot_failure_not_retried(tmp_path):
    """vng exiting without a crash (a bad option, say) is not booted again."""
    r = vmrun(tmp_path, "die", "true", FAKE_CRASHES="0")
    assert r.returncode == 125
    assert "before the guest command finished" in r.stderr
    assert (tmp_path / "boots").read_text().strip() == "1"
    assert "RETRIED" not in r.stderr


def test_boot_hang_is_retried(tmp_path):
    r = vmrun(tmp_path, "hang-boot", "true", extra=("--boot-timeout", "2"), FAKE_CRASHES="0")
    assert r.returncode == 125
    assert (tmp_path / "boots").read_text().strip() == "3"
    assert r.stderr.count("vm-run: RETRIED boot") == 2


def test_crash_before_the_command_is_retried(tmp_path):
    r = vmrun(tmp_path, "ok", "sh", "-c", "echo guest ran", FAKE_CRASHES="2")
    assert r.returncode == 0, r.stderr
    assert "guest ran" in r.stdout
    assert (tmp_path / "boots").read_text().strip() == "3"
    lines = (tmp_path / "x" / "retried.log").read_text().splitlines()
    retried = [x for x in lines if not x.startswith("#")]
    assert len(retried) == 2
    assert all("RETRIED" in x and "Oops: int3" in x for x in retried)
    # each with the crashed console's last lines, as KTAP comments
    assert any(x.startswith("#   ") and "Oops: int3" in x for x in lines)
    assert r.stderr.count("vm-run: RETRIED boot") == 2
    assert (tmp_path / "x" / "console.attempt1.log").exists()


def test_retries_are_bounded_and_a_panic_is_reported_as_such(tmp_path):
    r = vmrun(tmp_path, "ok", "true", FAKE_CRASHES="9")
    assert r.returncode == 126
    assert (tmp_path / "boots").read_text().strip() == "3"
    assert "guest kernel crashed (vng exit 255) before the guest command started" in r.stderr


def test_panic_after_the_start_is_a_failure_not_retried(tmp_path):
    r = vmrun(tmp_path, "panic-after", "true")
    assert r.returncode == 126
    assert "after the guest command started" in r.stderr
    assert not (tmp_path / "x" / "retried.log").exists()


def test_stale_int3_after_the_start_is_retried(tmp_path):
    """TCG's text-patching race (an int3 no longer in the text) is an
    artefact of the emulator: the command runs again."""
    r = vmrun(tmp_path, "ok", "sh", "-c", "echo guest ran", FAKE_INT3="1")
    assert r.returncode == 0, r.stderr
    assert "guest ran" in r.stdout
    retried = (tmp_path / "x" / "retried.log").read_text()
    assert "stale int3 at migrate_pages_batch+0x8c9/0x1640" in retried


def test_real_int3_after_the_start_is_a_failure(tmp_path):
    r = vmrun(tmp_path, "ok", "true", FAKE_INT3="1", FAKE_INT3_BYTE="cc")
    assert r.returncode == 126
    assert "after the guest command started" in r.stderr and "stale" not in r.stderr
    assert not (tmp_path / "x" / "retried.log").exists()


def test_signal_kills_the_guest_and_vm_run_dies_of_it(tmp_path):
    """Ctrl-C (SIGINT) or SIGTERM on vm-run leaves no QEMU behind."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        env, kdir = env_with_fake(tmp_path, "ok")
        pidf = tmp_path / f"guest.{sig}.pid"
        p = subprocess.Popen([VMRUN, "--kernel", kdir, "--xdir", str(tmp_path / "x"),
                              "--cwd", str(tmp_path), "--", "sh", "-c",
                              f"echo $$ > {pidf}; exec sleep 600"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while not (pidf.exists() and pidf.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.1)
        guest = int(pidf.read_text())
        # its short links (see test_long_checkout_path_*) are there while it runs
        links = [d for d in os.listdir("/tmp") if d.startswith("vmrun.") and
                 os.path.realpath(f"/tmp/{d}/0") == str(tmp_path / "x")]
        assert len(links) == 1
        p.send_signal(sig)
        _, err = p.communicate(timeout=20)
        assert p.returncode == -sig, err
        assert b"guest killed" in err
        assert not os.path.exists(f"/tmp/{links[0]}")
        time.sleep(0.2)
        assert not os.path.exists(f"/proc/{guest}") or \
            open(f"/proc/{guest}/stat").read().split()[2] == "Z"


def test_missing_kernel_is_clear(tmp_path):
    r = run([VMRUN, "--kernel", str(tmp_path / "nope"), "--", "true"],
            env=dict(os.environ, MEMACCEL_KVM="0"))
    assert r.returncode == 125
    assert "no kernel" in r.stderr


def test_topologies(tmp_path):
    for topo, numa, mem in (("2node", 2, "5120M"), ("4node", 4, "6144M")):
        r = run([VMRUN, "--print-cmd", "--topology", topo, "--xdir", str(tmp_path), "--", "true"],
                env=dict(os.environ, MEMACCEL_KVM="0"))
        assert r.returncode == 0
        args = r.stdout.split()
        assert args.count("--numa") == numa
        assert args[args.index("--memory") + 1] == mem
        assert "--disable-kvm" in args
    # memory-only nodes in 4node have no cpus=
    assert "--numa 1G --numa 1G" in r.stdout
    assert "initiator=" not in r.stdout and "hmat" not in r.stdout


def test_tiered_topology_has_an_hmat(tmp_path):
    """4node-tiered: every node names its initiator, and QEMU gets an ACPI
    HMAT with a latency and a bandwidth from each CPU node to each node,
    the same from each CPU node to itself (else 6.12 keeps one tier)."""
    r = run([VMRUN, "--print-cmd", "--topology", "4node-tiered", "--xdir", str(tmp_path),
             "--", "true"], env=dict(os.environ, MEMACCEL_KVM="0"))
    assert r.returncode == 0, r.stderr
    args = shlex.split(r.stdout)
    assert args[args.index("--cpus") + 1] == "2"
    assert args[args.index("--memory") + 1] == "6144M"
    numa = [args[i + 1] for i, a in enumerate(args) if a == "--numa"]
    assert numa == ["2G,cpus=0,initiator=0", "2G,cpus=1,initiator=1",
                    "1G,initiator=0", "1G,initiator=1"]
    dists = {args[i + 1] for i, a in enumerate(args) if a == "--numa-distance"}
    assert dists == {"0,1=20", "0,2=30", "0,3=40", "1,2=40", "1,3=30", "2,3=30"}
    # one --qemu-opts string, which virtme puts after the -numa node options
    assert args.count("--qemu-opts") == 1
    qemu = shlex.split(args[args.index("--qemu-opts") + 1])
    assert qemu[:2] == ["-smp", "2,sockets=2,cores=1,threads=1"]
    assert qemu[qemu.index("-machine") + 1] == "hmat=on"
    lb = {}
    for i, a in enumerate(qemu):
        if a == "-numa" and qemu[i + 1].startswith("hmat-lb,"):
            kv = dict(f.split("=") for f in qemu[i + 1].split(",")[1:])
            assert kv["hierarchy"] == "memory"
            key = (int(kv["initiator"]), int(kv["target"]), kv["data-type"])
            assert key not in lb
            lb[key] = kv["latency" if kv["data-type"] == "access-latency" else "bandwidth"]
    assert len(lb) == 16
    assert {k[:2] for k in lb} == {(i, t) for i in (0, 1) for t in range(4)}
    assert {k[2] for k in lb} == {"access-latency", "access-bandwidth"}
    for t in ("access-latency", "access-bandwidth"):
        assert lb[0, 0, t] == lb[1, 1, t] and lb[0, 0, t] not in ("0", "0G")
    # each memory-only node is nearer to (and initiated by) one CPU node
    lat = {k[:2]: int(v) for k, v in lb.items() if k[2] == "access-latency"}
    assert lat[0, 2] < lat[1, 2] and lat[1, 3] < lat[0, 3]
    assert max(lat[0, 0], lat[0, 1]) < lat[0, 2]


def test_tiered_qemu_command_defines_the_nodes_first(tmp_path):
    """virtme-ng's own QEMU command line (vng --dry-run, with a stand-in
    kernel) for 4node-tiered: hmat=on, a node per --numa with its
    initiator, and every hmat-lb entry after the last node (QEMU refuses an
    entry that names an initiator it has not seen yet)."""
    vng = os.path.join(TOP, "build", "venv", "bin", "vng")
    if not os.access(vng, os.X_OK):
        pytest.skip("no vng in build/venv (scripts/setup.sh)")
    kdir = tmp_path / "kernel"
    (kdir / "arch" / "x86" / "boot").mkdir(parents=True)
    (kdir / "arch" / "x86" / "boot" / "bzImage").write_text("")
    r = run([VMRUN, "--print-cmd", "--topology", "4node-tiered", "--kernel", str(kdir),
             "--xdir", str(tmp_path / "x"), "--", "true"], env=dict(os.environ, MEMACCEL_KVM="0"))
    assert r.returncode == 0, r.stderr
    args = shlex.split(r.stdout)
    # the short link vm-run made for the exchange directory is gone
    args[args.index("--rwdir") + 1] = str(tmp_path)
    args[0] = vng
    env = dict(os.environ, PATH=os.path.dirname(vng) + os.pathsep + os.environ["PATH"])
    # --force-9p: the dry run does not wait for a virtiofsd (seconds); where
    # the nodes and the --qemu-opts go does not depend on it
    r = run(args + ["--force-9p", "--dry-run"], env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    qemu = shlex.split(next(x for x in r.stdout.splitlines() if "qemu-system" in x))
    numa = [(i, qemu[i + 1]) for i, a in enumerate(qemu) if a == "-numa"]
    nodes = [(i, v) for i, v in numa if v.startswith("node,")]
    lbs = [i for i, v in numa if v.startswith("hmat-lb,")]
    assert [v.split(",", 2)[2] for _, v in nodes] == [
        "cpus=0,initiator=0", "cpus=1,initiator=1", "initiator=0", "initiator=1"]
    assert len(lbs) == 16 and min(lbs) > max(i for i, _ in nodes)
    assert "hmat=on" in [qemu[i + 1] for i, a in enumerate(qemu) if a == "-machine"]


CHILD = """import os, signal, sys, time
def on_term(signum, frame):
    open(sys.argv[1] + ".term", "w").write("TERM")
    sys.exit(143)
signal.signal(signal.SIGTERM, on_term)
open(sys.argv[1] + ".pid", "w").write(str(os.getpid()))
time.sleep(60)
"""


@pytest.mark.parametrize("guarded", [True, False])
def test_sigterm_to_make_reaches_vm_run(tmp_path, guarded):
    """kill <make> while a make target's script waits on vm-run: with
    run_guarded (scripts/env.sh) the SIGTERM reaches vm-run, which kills its
    guest, and make ends. Called without it, vm-run (here a stand-in) never
    sees the signal and keeps running: checked too, so that the test can
    fail."""
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    mark = tmp_path / "child"
    script = tmp_path / "s.sh"
    call = "run_guarded " if guarded else ""
    script.write_text(f'. "{TOP}/scripts/env.sh"\n{call}python3 {child} {mark}\necho after\n')
    mk = tmp_path / "Makefile"
    mk.write_text(f"all:\n\t@bash {script}\n")
    log = tmp_path / "make.log"
    # output to a file: a surviving child would hold a pipe open
    p = subprocess.Popen(["make", "-s", "-f", str(mk)], stdout=open(log, "w"),
                         stderr=subprocess.STDOUT, start_new_session=True)
    pidfile = tmp_path / "child.pid"
    for _ in range(100):
        if pidfile.exists() and pidfile.read_text():
            break
        time.sleep(0.1)
    pid = int(pidfile.read_text())
    os.kill(p.pid, signal.SIGTERM)
    try:
        if guarded:
            p.wait(timeout=20)
            assert p.returncode != 0 and "after" not in log.read_text()
            assert (tmp_path / "child.term").exists()
            time.sleep(0.2)
            assert subprocess.run(["kill", "-0", str(pid)], capture_output=True).returncode != 0
        else:
            time.sleep(3)
            assert not (tmp_path / "child.term").exists()
            assert subprocess.run(["kill", "-0", str(pid)], capture_output=True).returncode == 0
    finally:
        subprocess.run(["kill", "-9", str(pid)], capture_output=True)
        p.wait(timeout=20)


def test_every_vm_run_in_a_script_is_guarded():
    d = os.path.join(TOP, "scripts")
    for name in sorted(os.listdir(d)):
        if name.endswith(".sh"):
            for line in open(os.path.join(d, name)):
                if re.match(r"\s*scripts/vm-run\b", line):
                    raise AssertionError(f"{name}: vm-run without run_guarded: {line.strip()}")
