"""core/heap.py: inside reuse_freed_blocks a large array freed and made again is not page-faulted in afresh, and
the memory goes back to the OS on leaving.

Measured in a fresh interpreter: in the test session's own process earlier tests leave large free chunks in the
heap, already resident, which the arrays here would reuse without any change in resident size.
"""

import json
import subprocess
import sys

PROBE = r"""
import json, resource
import numpy as np
from fieldline_engine.core.heap import reuse_freed_blocks

SIZE = 8_000_000  # 64 MB: above glibc's largest mmap threshold (32 MiB), so mmap'd by default

def faults_making(count):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(count):
        a = np.ones(SIZE)  # touches every page
        del a
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

def resident_mb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 1e6

outside = faults_making(5)
start = resident_mb()
with reuse_freed_blocks() as applies:
    inside = faults_making(5)
    kept = resident_mb()
after = resident_mb()
print(json.dumps(dict(outside=outside, inside=inside, applies=applies, start=start, kept=kept, after=after)))
"""


def test_freed_blocks_are_reused_inside_and_returned_after():
    run = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True
    )
    m = json.loads(run.stdout.strip().splitlines()[-1])
    print(
        f"page faults for 5 × 64 MB arrays: {m['outside']} outside, {m['inside']} inside (glibc: {m['applies']}); "
        f"resident {m['start']:.0f} → {m['kept']:.0f} MB inside after the frees → {m['after']:.0f} MB on leaving"
    )
    if m["applies"]:
        assert m["inside"] < m["outside"]  # the first array is faulted in, the others mostly reuse it
        assert m["kept"] > m["start"] + 50  # the freed block stayed in the heap
    assert m["after"] < m["start"] + 10  # and went back to the OS on leaving
