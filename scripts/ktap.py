#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sum up KTAP/TAP streams.

    ktap.py [--junit XML ...] FILE...

Counts every leaf result line ("ok N name", "not ok N name", "# SKIP"
directives) at any nesting depth; a result line that has subtests is counted
through its subtests only. pytest JUnit XML files add their cases. A stream
that announces a plan ("1..N") but reports fewer results counts the missing
ones as failed, so a crashed or truncated run cannot pass, and results
beyond the plan are one failure. "Bail out! REASON"
(a set-up that failed) is one failure, whatever the plan; "1..0 # SKIP
REASON" (a test that does not apply) is one skip. Prints failed and
skipped test names (identical skips once, with a count), the failures of
first attempts that were retried (RETRY_TAG lines, not counted), each failure
with the output lines around it in its stream (kselftest_harness prints a
case's diagnostics before its result, tests/vm/lib/ktap.sh's ktap_check
after it: both are shown), then one line "N passed, N failed, N skipped";
exits 1 if anything failed or nothing ran.
"""
import collections
import re
import sys
import xml.etree.ElementTree as ET

RESULT = re.compile(r"^(\s*)(not ok|ok)\s+(\d+)\s*(?:-\s*)?([^#]*?)\s*(?:#\s*(.*))?$")
CONTEXT_LINES = 15
# Prefix of the output of a first attempt that failed and was run again
# (tests/vm/mm-selftests.sh); only the second attempt's results count.
RETRY_TAG = "# [first attempt failed, retried] "
PLAN = re.compile(r"^(\s*)1\.\.(\d+)")
SKIP_ALL = re.compile(r"^1\.\.0\s*#\s*SKIP\b\s*(.*)$", re.I)
BAIL = re.compile(r"^Bail out!\s*(.*)$")


class Counts:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.failures = []
        self.skips = []
        self.context = {}
        self.retried = []

    def add(self, status, name, directive="", context=()):
        d = (directive or "").strip()
        if status == "not ok" and not d.upper().startswith("TODO"):
            self.failed += 1
            self.failures.append(name)
            self.context[name] = list(context)
        elif d.upper().startswith("SKIP"):
            self.skipped += 1
            self.skips.append(f"{name}: {d[4:].strip() or 'no reason given'}")
        else:
            self.passed += 1


def indent_of(s):
    return len(s.expandtabs(4))


def parse_stream(lines, origin, counts):
    """Count leaf results. Nesting is by indentation (KTAP) or by a '# '
    prefix (kselftest subtests printed as '# ok 1 ...')."""
    entries = []  # (depth, status, name, directive, output around it)
    plans = {}    # depth -> announced plan (first seen at that depth)
    recent = collections.deque(maxlen=CONTEXT_LINES)
    after = None  # output after the last result, up to the next one
    bailed = None
    for raw in lines:
        stripped = raw.rstrip("\n")
        b = BAIL.match(stripped)
        if b and bailed is None:
            bailed = (b.group(1).strip() or "no reason given", tuple(recent))
            continue
        sk = SKIP_ALL.match(stripped)
        if sk and not entries:
            counts.add("ok", f"{origin}: all", f"SKIP {sk.group(1).strip()}")
            continue
        if stripped.startswith(RETRY_TAG):
            m = RESULT.match(stripped[len(RETRY_TAG):].lstrip("# "))
            if m and m.group(2) == "not ok":
                counts.retried.append(f"{origin}: {m.group(4).strip()}")
        prefix_depth = 0
        while stripped.lstrip().startswith("# "):
            inner = stripped.lstrip()[2:]
            if not (RESULT.match(inner) or PLAN.match(inner)):
                break
            stripped = inner
            prefix_depth += 1
        m = RESULT.match(stripped)
        if m:
            depth = indent_of(m.group(1)) // 2 + prefix_depth
            after = []
            entries.append((depth, m.group(2), m.group(4).strip(), m.group(5) or "",
                            (tuple(recent), after)))
            recent.clear()
            continue
        p = PLAN.match(stripped)
        if p:
            d = indent_of(p.group(1)) // 2 + prefix_depth
            plans.setdefault(d, int(p.group(2)))
        elif stripped.strip():
            recent.append(stripped)
            if after is not None and len(after) < CONTEXT_LINES:
                after.append(stripped)
    # A result is a leaf unless the entries just before it are deeper
    # (subtests are printed before their parent's result line).
    top = min((e[0] for e in entries), default=0)
    top_seen = 0
    for i, (depth, status, name, directive, context) in enumerate(entries):
        has_children = i > 0 and entries[i - 1][0] > depth
        if depth == top:
            top_seen += 1
        if has_children and status == "ok":
            continue
        if has_children and status == "not ok":
            # children already carry the failure if any failed; count the
            # parent failure only if none of them did.
            j = i - 1
            child_failed = False
            while j >= 0 and entries[j][0] > depth:
                if entries[j][1] == "not ok":
                    child_failed = True
                j -= 1
            if child_failed:
                continue
        if status == "not ok":
            # Name a failed subtest with the results it is nested in
            # (printed after it): the same case runs in several blocks.
            want, outer = depth, []
            for d, _, n, _, _ in entries[i + 1:]:
                if d < want:
                    outer.append(n)
                    want = d
            name = " > ".join(list(reversed(outer)) + [name])
        before, following = context
        counts.add(status, f"{origin}: {name}", directive,
                   list(before) + [f"(after it) {x}" for x in following])
    if bailed is not None:
        counts.add("not ok", f"{origin}: bailed out: {bailed[0]}", "", bailed[1])
    else:
        # The plan must match: results missing (a test that died, even
        # before its first result) fail, and so do results beyond it.
        want = plans.get(top) if entries else plans.get(0)
        if want is not None and top_seen < want:
            missing = want - top_seen
            counts.failed += missing
            counts.failures.append(f"{origin}: {missing} planned test(s) never reported")
        elif want is not None and top_seen > want:
            counts.failed += 1
            counts.failures.append(f"{origin}: {top_seen} results, {top_seen - want} beyond the plan of {want}")
    return counts


def parse_junit(path, counts):
    root = ET.parse(path).getroot()
    for case in root.iter("testcase"):
        name = f"{path}: {case.get('classname')}.{case.get('name')}"
        if case.find("failure") is not None or case.find("error") is not None:
            counts.add("not ok", name)
        elif case.find("skipped") is not None:
            msg = case.find("skipped").get("message", "")
            counts.add("ok", name, f"SKIP {msg}")
        else:
            counts.add("ok", name)


def main(argv):
    counts = Counts()
    files = []
    it = iter(argv)
    for a in it:
        if a == "--junit":
            parse_junit(next(it), counts)
        else:
            files.append(a)
    for f in files:
        with open(f, errors="replace") as fh:
            parse_stream(fh, f, counts)
    for s, n in collections.Counter(counts.skips).items():
        print(f"SKIP {s}" + (f" (x{n})" if n > 1 else ""))
    for r in counts.retried:
        print(f"RETRIED {r} (failed on the first attempt)")
    for f in counts.failures:
        print(f"FAIL {f}")
        for line in counts.context.get(f, ()):
            print(f"  | {line}")
    line = f"{counts.passed} passed, {counts.failed} failed"
    if counts.skipped:
        line += f", {counts.skipped} skipped"
    print(line)
    total = counts.passed + counts.failed + counts.skipped
    return 1 if counts.failed or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
