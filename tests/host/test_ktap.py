# SPDX-License-Identifier: GPL-2.0
"""scripts/ktap.py: the numbers in the summary line are what the streams say."""
import os

from conftest import TOP, run

KTAP = os.path.join(TOP, "scripts", "ktap.py")


def summarize(tmp_path, *streams, junit=None):
    files = []
    for i, s in enumerate(streams):
        p = tmp_path / f"s{i}.tap"
        p.write_text(s)
        files.append(str(p))
    args = ["python3", KTAP] + (["--junit", junit] if junit else []) + files
    r = run(args)
    return r.returncode, r.stdout.strip().splitlines()[-1], r.stdout


def test_flat_pass_fail_skip(tmp_path):
    rc, line, _ = summarize(tmp_path, "KTAP version 1\n1..3\nok 1 a\nnot ok 2 b\nok 3 c # SKIP why\n")
    assert line == "1 passed, 1 failed, 1 skipped"
    assert rc == 1


def test_all_pass_exit_zero(tmp_path):
    rc, line, _ = summarize(tmp_path, "1..2\nok 1 a\nok 2 b\n")
    assert (rc, line) == (0, "2 passed, 0 failed")


def test_nested_counts_leaves_only(tmp_path):
    s = ("KTAP version 1\n1..2\n    KTAP version 1\n    1..2\n    ok 1 x\n    ok 2 y\n"
         "ok 1 suite\nok 2 z\n")
    rc, line, _ = summarize(tmp_path, s)
    assert (rc, line) == (0, "3 passed, 0 failed")


def test_failed_parent_without_failed_child_counts_once(tmp_path):
    s = "1..1\n    1..1\n    ok 1 x\nnot ok 1 suite\n"
    rc, line, _ = summarize(tmp_path, s)
    assert line == "1 passed, 1 failed"


def test_kselftest_hash_prefixed_subtests(tmp_path):
    s = ("TAP version 13\n# running ./migration\n# 1..2\n# ok 1 migration.a\n"
         "# not ok 2 migration.b\nnot ok 1 migration # exit=1\n# some chatter ok\n1..1\n")
    rc, line, out = summarize(tmp_path, s)
    assert line == "1 passed, 1 failed"
    assert "migration.b" in out


def test_truncated_stream_counts_missing_as_failed(tmp_path):
    rc, line, out = summarize(tmp_path, "KTAP version 1\n1..4\nok 1 a\nok 2 b\n")
    assert line == "2 passed, 2 failed"
    assert "never reported" in out
    assert rc == 1


def test_nothing_ran_is_failure(tmp_path):
    rc, line, _ = summarize(tmp_path, "KTAP version 1\n")
    assert (rc, line) == (1, "0 passed, 0 failed")


def test_skip_reason_is_shown(tmp_path):
    _, _, out = summarize(tmp_path, "1..1\nok 1 numa # SKIP needs 2 nodes\n")
    assert "SKIP" in out and "needs 2 nodes" in out


def test_junit(tmp_path):
    x = tmp_path / "j.xml"
    x.write_text('<testsuites><testsuite><testcase classname="c" name="a"/>'
                 '<testcase classname="c" name="b"><failure message="m"/></testcase>'
                 '<testcase classname="c" name="s"><skipped message="why"/></testcase>'
                 '</testsuite></testsuites>')
    rc, line, _ = summarize(tmp_path, "1..1\nok 1 k\n", junit=str(x))
    assert line == "2 passed, 1 failed, 1 skipped"


def test_failure_shows_the_output_before_it(tmp_path):
    s = ("1..2\n# RUN a\n# all fine\nok 1 a\n"
         "# RUN b\n# Didn't migrate 1 pages\nnot ok 2 b\n")
    rc, _, out = summarize(tmp_path, s)
    assert rc == 1
    block = out.split("FAIL ", 1)[1].splitlines()
    assert block[0].endswith(": b")
    assert block[1:3] == ["  | # RUN b", "  | # Didn't migrate 1 pages"]
    assert "all fine" not in out


def test_failure_shows_the_output_after_it(tmp_path):
    # tests/vm/lib/ktap.sh's ktap_check prints a failed command's output
    # after the result line: CI shows only the summary, so it must be there
    s = ("1..3\nok 1 a\n# took 38s\nnot ok 2 b\n# took 95s\n"
         "# migcheck: FAIL: fewer than 50% of the pages reached node 2\n"
         "ok 3 c\n# fine\n")
    rc, _, out = summarize(tmp_path, s)
    assert rc == 1
    block = out.split("FAIL ", 1)[1].splitlines()
    assert block[0].endswith(": b")
    assert block[1:4] == [
        "  | # took 38s", "  | (after it) # took 95s",
        "  | (after it) # migcheck: FAIL: fewer than 50% of the pages reached node 2"]
    assert "fine" not in out


def test_identical_skips_listed_once_with_count(tmp_path):
    s = "1..3\nok 1 a # SKIP no hugepages\nok 2 a # SKIP no hugepages\nok 3 c # SKIP other\n"
    rc, line, out = summarize(tmp_path, s)
    assert (rc, line) == (0, "0 passed, 0 failed, 3 skipped")
    assert out.count("no hugepages") == 1 and "(x2)" in out


def test_retried_first_attempt_listed_not_counted(tmp_path):
    tag = "# [first attempt failed, retried] "
    s = (f"{tag}1..2\n{tag}# ok 1 a\n{tag}# not ok 2 flaky\n{tag}not ok 1 suite\n"
         "1..1\n# 1..2\n# ok 1 a\n# ok 2 flaky\nok 1 suite\n")
    rc, line, out = summarize(tmp_path, s)
    assert (rc, line) == (0, "2 passed, 0 failed")
    assert "RETRIED" in out and ": flaky (failed on the first attempt)" in out


def test_bail_out_is_one_failure_whatever_the_plan(tmp_path):
    rc, line, out = summarize(tmp_path, "KTAP version 1\n1..40\nok 1 a\n# modprobe: not found\n"
                              "Bail out! set-up failed: dcbm module\n")
    assert (rc, line) == (1, "1 passed, 1 failed")
    assert "bailed out: set-up failed: dcbm module" in out
    assert "| # modprobe: not found" in out


def test_results_beyond_the_plan_fail(tmp_path):
    rc, line, out = summarize(tmp_path, "1..1\nok 1 a\nok 2 b\n")
    assert (rc, line) == (1, "2 passed, 1 failed")
    assert "beyond the plan of 1" in out


def test_nested_skip_all_is_not_a_file_skip(tmp_path):
    rc, line, _ = summarize(tmp_path, "KTAP version 1\n1..1\n    1..0 # SKIP inner\nok 1 outer\n")
    assert (rc, line) == (0, "1 passed, 0 failed")


def test_skip_all_is_one_skip(tmp_path):
    rc, line, out = summarize(tmp_path, "KTAP version 1\n1..0 # SKIP no DMA engine\n",
                              "1..1\nok 1 a\n")
    assert (rc, line) == (0, "1 passed, 0 failed, 1 skipped")
    assert "no DMA engine" in out


def test_failed_subtest_named_with_its_enclosing_results(tmp_path):
    s = ("1..2\n    1..1\n    ok 1 integrity\nok 1 selftest, cpu\n"
         "    1..1\n        1..1\n        not ok 1 integrity\n"
         "    not ok 1 group\nnot ok 2 selftest, mtcopy\n")
    rc, line, out = summarize(tmp_path, s)
    assert (rc, line) == (1, "1 passed, 1 failed")
    assert "FAIL " in out
    fail = [x for x in out.splitlines() if x.startswith("FAIL ")]
    assert len(fail) == 1
    assert fail[0].endswith(": selftest, mtcopy > group > integrity")
