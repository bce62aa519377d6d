# SPDX-License-Identifier: GPL-2.0
"""scripts/mtcopy_trace.py, the summary of the mtcopy slow-state
diagnostic: it matches a helper's queueing with its start although the two
trace events print the work struct differently, and reports each batch's
copy+move time per MB."""
import os
import sys

from conftest import TOP, run

TRACE = os.path.join(TOP, "scripts", "mtcopy_trace.py")

# Real lines of a 2node guest's trace (6.12, the series' events)
LINES = """\
# tracer: nop
        migbench-68      [000] d..1.     6.916116: workqueue_queue_work: work struct=000000002300a2d1 function=mtcopy_work [mtcopy] workqueue=mtcopy req_cpu=1 cpu=1
     kworker/1:1-39      [001] .....     6.916174: workqueue_execute_start: work struct 000000002300a2d1: function mtcopy_work [mtcopy]
     kworker/1:1-39      [001] .....     6.920337: workqueue_execute_end: work struct 000000002300a2d1: function mtcopy_work [mtcopy]
        migbench-68      [000] .....     6.921100: mm_migrate_offload_copy: engine=mtcopy reason=syscall_or_cpuset folios=1 copied=1 bytes=2097152 ns=4893380 rc=0
        migbench-68      [000] .....     6.922559: mm_migrate_batch: reason=syscall_or_cpuset folios=1 pages=512 unmap_ns=1289460 flush_ns=17340 copy_ns=5763630 move_ns=1257420
"""


def test_start_latency_and_batch_time(tmp_path):
    (tmp_path / "state.csv").write_text("label,table,moved_B,wall_s\n")
    (tmp_path / "trace-r1-mtcopy-2-2M.txt").write_text(LINES)
    out = run([sys.executable, TRACE, str(tmp_path)]).stdout
    # queued at 6.916116, started at 6.916174: 58 us, not 0
    assert "start after median 58 us" in out, out
    assert "runs median 4163 us" in out, out
    # (5763630 + 1257420) ns over 2 MB
    assert "copy+move median 3511 us per MB" in out, out
    assert "1 engine calls, median 4893 us" in out, out
