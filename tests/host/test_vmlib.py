# SPDX-License-Identifier: GPL-2.0
"""tests/vm/lib/ktap.sh on the host: plan accounting, bail-out on a failed
set-up, and settings restored however a test exits."""
import os
import sys

import pytest

from conftest import TOP, run

LIB = os.path.join(TOP, "tests", "vm", "lib", "ktap.sh")
KTAP = os.path.join(TOP, "scripts", "ktap.py")


def guest_test(tmp_path, body):
    """Run BODY as a test sourcing ktap.sh; return (rc, stdout, ktap.py's
    summary line)."""
    script = tmp_path / "t.sh"
    script.write_text(f"#!/usr/bin/env bash\n. {LIB}\nset -u\n{body}\n")
    r = run(["bash", str(script)])
    tap = tmp_path / "t.tap"
    tap.write_text(r.stdout)
    s = run([sys.executable, KTAP, str(tap)])
    return r.returncode, r.stdout, s.stdout.strip().splitlines()[-1]


def test_plan_and_results(tmp_path):
    rc, out, line = guest_test(tmp_path, "ktap_plan 2\nktap_check a true\nktap_check b false\nktap_finished")
    assert rc == 1 and line == "1 passed, 1 failed"
    assert out.splitlines()[:2] == ["KTAP version 1", "1..2"]


def test_one_result_too_many_or_few_fails(tmp_path):
    """Both the script and make test's sum see a plan that does not hold."""
    for n in (1, 3):
        rc, out, line = guest_test(tmp_path, f"ktap_plan {n}\nktap_ok a\nktap_ok b\nktap_finished")
        assert rc == 1 and f"planned {n} results, reported 2" in out
        assert line == "2 passed, 1 failed", line


def test_death_after_the_plan_before_any_result_fails(tmp_path):
    rc, out, line = guest_test(tmp_path, "ktap_plan 3\necho $undefined_variable\nktap_ok never")
    assert rc != 0 and line == "0 passed, 3 failed", line


def test_failed_setup_is_one_clear_failure(tmp_path):
    rc, out, line = guest_test(tmp_path, "ktap_plan 30\nktap_ok first\n"
                               "require 'the widget module' sh -c 'echo no such module; exit 1'\n"
                               "ktap_ok never")
    assert rc == 1 and line == "1 passed, 1 failed"
    assert "Bail out! set-up failed: the widget module" in out
    assert "# no such module" in out and "never" not in out


def test_skip_all(tmp_path):
    rc, out, line = guest_test(tmp_path, "ktap_skip_all no DMA engine\nktap_ok never")
    assert rc == 0 and line == "0 passed, 0 failed, 1 skipped"


def test_settings_restored_on_every_exit(tmp_path):
    """restore and at_exit undo a test's changes on a normal end, a
    bail-out and a kill."""
    for end in ("ktap_finished", "ktap_bail_out gone", "kill -TERM $$; sleep 5"):
        knob = tmp_path / "knob"
        choice = tmp_path / "choice"
        knob.write_text("512\n")
        choice.write_text("always inherit madvise [never]\n")
        marker = tmp_path / "cleaned"
        if marker.exists():
            marker.unlink()
        guest_test(tmp_path, f"ktap_plan 0\nrestore {knob} {choice}\n"
                   f"at_exit touch {marker}\necho 4096 >{knob}\necho always >{choice}\n{end}")
        assert knob.read_text() == "512\n", end
        assert choice.read_text() == "never\n", end
        assert marker.exists(), end


DAMO_LIB = os.path.join(TOP, "tests", "vm", "lib", "damo.sh")


def test_damo_comes_from_the_venv(tmp_path):
    """tests/vm/lib/damo.sh finds the venv's damo, the version pinned in
    requirements.txt, and runs it with one HOME of its own (the same in
    subshells) that the test's exit removes."""
    venv = os.path.join(TOP, "build", "venv")
    if not os.access(os.path.join(venv, "bin", "damo"), os.X_OK):
        pytest.skip("no damo in build/venv (scripts/setup.sh)")
    pins = [x.strip() for x in open(os.path.join(TOP, "requirements.txt"))]
    want = next(x.split("==")[1] for x in pins if x.startswith("damo=="))
    rc, out, _ = guest_test(tmp_path, f"unset MEMACCEL_VENV\n. {DAMO_LIB}\nktap_plan 0\n"
                            "echo path=$(damo_path)\necho home=$DAMO_HOME\n"
                            "echo version=$(damo version)\n"
                            "echo sub=$(echo $DAMO_HOME)\nktap_finished")
    assert rc == 0, out
    got = dict(x.split("=", 1) for x in out.splitlines() if "=" in x)
    assert got["path"] == os.path.join(venv, "bin", "damo")
    assert got["version"] == want
    assert got["sub"] == got["home"] and got["home"].startswith("/tmp/damo.")
    assert not os.path.exists(got["home"])


def test_no_damo_is_a_clear_bail_out(tmp_path):
    rc, out, line = guest_test(tmp_path, f"export MEMACCEL_VENV={tmp_path}/none\n. {DAMO_LIB}\n"
                               "ktap_plan 3\nrequire 'damo from the venv' damo_init\nktap_ok never")
    assert rc == 1 and line == "0 passed, 1 failed", out
    assert "Bail out! set-up failed: damo from the venv" in out
    assert f"# no damo in {tmp_path}/none" in out and "never" not in out


VMTESTS_LIB = os.path.join(TOP, "tests", "vm", "lib", "vmtests.sh")

# A run_vmtests.sh that prints what the upstream one prints for each test
# (6.12: the title block, the output with "# ", a numbered result).
FAKE_RUN_VMTESTS = r"""#!/usr/bin/env bash
n=0 code=0
run_test() {
	local title="running $*"
	printf '# %s\n' "${title//?/-}" "$title" "${title//?/-}"
	("$@" 2>&1) | sed 's/^/# /'
	local ret=${PIPESTATUS[0]} name
	name=$(echo "$*" | sed -e 's/^\(bash \)\?\.\///')
	n=$((n + 1))
	if [ $ret = 0 ]; then echo "ok $n $name"
	elif [ $ret = 4 ]; then echo "ok $n $name # SKIP"; code=4
	else echo "not ok $n $name # exit=$ret"; code=1; fi
}
echo "TAP version 13"
[ -n "${FAKE_EXIT:-}" ] && { echo "no hugetlbfs support in kernel?"; exit "$FAKE_EXIT"; }
for t in $TESTS; do
	case $t in
	*.sh) run_test bash ./$t -x ;;
	*) run_test ./$t -x ;;
	esac
done
echo "# SUMMARY"
echo "1..$n"
exit $code
"""

# Each fake test logs its runs; "flaky" and "subtests" fail their first run.
FAKE_TEST = r"""#!/usr/bin/env bash
name=$(basename "$0")
echo "$name $*" >>runs.log
runs=$(grep -c "^$name " runs.log)
case $name in
good) echo fine; exit 0 ;;
skipper) echo "no widget"; exit 4 ;;
bad) echo broken; exit 1 ;;
flaky) [ "$runs" -gt 1 ] || { echo "race lost"; exit 1; }; exit 0 ;;
twice) [ "$runs" -gt 2 ] || { echo "race lost"; exit 1; }; exit 0 ;;
skipafter) [ "$runs" -gt 1 ] || exit 1; exit 4 ;;
script.sh) [ "$runs" -gt 1 ] || exit 1; exit 0 ;;
reader) [ "$runs" -gt 1 ] || exit 1; cat >/dev/null; exit 0 ;;
sleeper) sleep 60 ;;
subtests)
	echo "1..2"; echo "ok 1 first"
	if [ "$runs" -gt 1 ]; then echo "ok 2 second"; exit 0; fi
	echo "not ok 2 second"; exit 1 ;;
esac
"""


def vmtests_run(tmp_path, tests, attempts=3, env=None, wrap=()):
    """Run run_vmtests_retried in a directory of fake tests (under the
    command WRAP, if given); return (rc, stdout, ktap.py's output lines,
    the tests' runs)."""
    (tmp_path / "run_vmtests.sh").write_text(FAKE_RUN_VMTESTS)
    for t in ("good", "skipper", "bad", "flaky", "subtests", "twice", "skipafter",
              "script.sh", "reader", "sleeper"):
        (tmp_path / t).write_text(FAKE_TEST)
    for f in tmp_path.iterdir():
        f.chmod(0o755)
    r = run([*wrap, "bash", "-c", f". {VMTESTS_LIB}; run_vmtests_retried cat {attempts}"],
            cwd=tmp_path, env={**os.environ, "TESTS": " ".join(tests), **(env or {})})
    tap = tmp_path / "mm.tap"
    tap.write_text(r.stdout)
    s = run([sys.executable, KTAP, str(tap)])
    log = tmp_path / "runs.log"
    runs = log.read_text().splitlines() if log.exists() else []
    return r.returncode, r.stdout, s.stdout.strip().splitlines(), runs


def test_vmtests_retry_runs_only_the_failed_test_again(tmp_path):
    """A test that fails once is run again alone, with its arguments; the
    tests that passed run once (the whole category ran again before)."""
    rc, out, summary, runs = vmtests_run(tmp_path, ["good", "flaky", "skipper"])
    assert rc == 4, out
    assert runs == ["good -x", "flaky -x", "skipper -x", "flaky -x"], runs
    assert summary[-1] == "2 passed, 0 failed, 1 skipped", summary
    assert any(x.startswith("RETRIED") and "flaky -x" in x for x in summary), summary
    assert "ok 2 flaky -x # attempt 2 alone" in out.splitlines(), out
    # the failed attempt's output stays, tagged
    assert "# [first attempt failed, retried] # race lost" in out.splitlines(), out


def test_vmtests_failed_subtests_of_a_retried_attempt_are_not_counted(tmp_path):
    rc, out, summary, runs = vmtests_run(tmp_path, ["subtests", "good"])
    assert rc == 0, out
    assert runs == ["subtests -x", "good -x", "subtests -x"], runs
    assert summary[-1] == "3 passed, 0 failed", summary


def test_vmtests_a_test_failing_every_attempt_fails(tmp_path):
    rc, out, summary, runs = vmtests_run(tmp_path, ["bad", "good"])
    assert rc == 1, out
    assert runs == ["bad -x", "good -x", "bad -x", "bad -x"], runs
    assert summary[-1] == "1 passed, 1 failed", summary
    assert "not ok 1 bad -x # exit=1, attempt 3 alone" in out.splitlines(), out


def test_vmtests_one_attempt_is_no_retry(tmp_path):
    rc, out, summary, runs = vmtests_run(tmp_path, ["flaky", "good"], attempts=1)
    assert rc == 1 and runs == ["flaky -x", "good -x"], runs
    assert summary[-1] == "1 passed, 1 failed", summary


def test_vmtests_a_skip_after_a_failure_is_a_failure(tmp_path):
    rc, out, summary, runs = vmtests_run(tmp_path, ["skipafter", "good"])
    assert rc == 1, out
    assert runs == ["skipafter -x", "good -x", "skipafter -x", "skipafter -x"], runs
    assert summary[-1] == "1 passed, 1 failed", summary


def test_vmtests_middle_attempts_are_tagged_too(tmp_path):
    """fail, fail, pass: both failed attempts are listed, the pass counts
    once; the stream's TAP header is never tagged."""
    rc, out, summary, runs = vmtests_run(tmp_path, ["twice"])
    assert rc == 0, out
    assert runs == ["twice -x"] * 3, runs
    assert summary[-1] == "1 passed, 0 failed", summary
    assert len([x for x in summary if x.startswith("RETRIED")]) == 2, summary
    assert out.splitlines()[0] == "TAP version 13", out


def test_vmtests_a_script_is_run_again_with_bash(tmp_path):
    rc, out, summary, runs = vmtests_run(tmp_path, ["script.sh", "good"])
    assert rc == 0 and runs == ["script.sh -x", "good -x", "script.sh -x"], out
    assert summary[-1] == "2 passed, 0 failed", summary


def test_vmtests_a_retried_test_does_not_read_the_results(tmp_path):
    """A retried test gets no stdin: the results after it are all counted."""
    rc, out, summary, runs = vmtests_run(tmp_path, ["reader", "good", "skipper"])
    assert runs == ["reader -x", "good -x", "skipper -x", "reader -x"], runs
    assert summary[-1] == "2 passed, 0 failed, 1 skipped", summary


def test_vmtests_a_run_that_ends_early_fails(tmp_path):
    """run_vmtests.sh exiting 1 before any test (its hugetlbfs check) is a
    failure, not an empty pass."""
    rc, out, summary, runs = vmtests_run(tmp_path, ["good"], env={"FAKE_EXIT": "1"})
    assert rc == 1 and runs == [], out
    assert summary[-1].endswith("1 failed"), summary


def test_vmtests_a_test_that_cannot_run_again_fails_untagged(tmp_path):
    """A failed test whose command is not a file here is not retried, not
    listed as RETRIED, and fails once."""
    rc, out, summary, runs = vmtests_run(tmp_path, ["missing", "good"])
    assert rc == 1 and runs == ["good -x"], out
    assert summary[-1] == "1 passed, 1 failed", summary
    assert not any(x.startswith("RETRIED") for x in summary), summary


def test_vmtests_a_skip_before_any_test_fails(tmp_path):
    """run_vmtests.sh exiting 4 before its first test (its root check)
    reports nothing: that is one failure, not an empty pass."""
    rc, out, summary, runs = vmtests_run(tmp_path, ["good"], env={"FAKE_EXIT": "4"})
    assert rc == 4 and runs == [], out
    assert summary[-1].endswith("1 failed"), summary


def test_vmtests_raw_output_survives_a_kill(tmp_path):
    """With VMTESTS_RAW, what run_vmtests.sh and each retry printed is in
    that file as it comes: run.sh's timeout, which kills the run before
    it prints its TAP, leaves it (and run.sh adds its tail to the TAP)."""
    raw = tmp_path / "raw.log"
    rc, out, summary, runs = vmtests_run(tmp_path, ["flaky", "good", "sleeper"],
                                         env={"VMTESTS_RAW": str(raw)},
                                         wrap=("timeout", "-s", "TERM", "4"))
    assert rc == 124 and out == "", out
    lines = raw.read_text().splitlines()
    assert "not ok 1 flaky -x # exit=1" in lines, lines
    assert "ok 2 good -x" in lines, lines
    assert "# running ./sleeper -x" in lines, lines
    # a retry's output goes there too (flaky fails its first run of a
    # fresh directory)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    rc, out, summary, runs = vmtests_run(fresh, ["flaky"], env={"VMTESTS_RAW": str(raw)})
    assert rc == 0 and runs == ["flaky -x", "flaky -x"], out
    assert "--- attempt 2 of flaky -x alone ---" in raw.read_text().splitlines(), out
