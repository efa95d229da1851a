"""core/heap.py: inside reuse_freed_blocks a large array freed and made again is not page-faulted in afresh, and
the memory goes back to the OS on leaving."""

import resource

import numpy as np

from fieldline_engine.core.heap import reuse_freed_blocks

SIZE = 8_000_000  # 64 MB: above glibc's largest mmap threshold (32 MiB), so mmap'd by default


def _faults_making(count: int) -> int:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(count):
        a = np.ones(SIZE)  # touches every page
        del a
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


def _resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 1e6


def test_freed_blocks_are_reused_inside_and_returned_after():
    outside = _faults_making(5)
    start = _resident_mb()
    with reuse_freed_blocks() as applies:
        inside = _faults_making(5)
        kept = _resident_mb()
    after = _resident_mb()
    print(
        f"page faults for 5 × 64 MB arrays: {outside} outside, {inside} inside (glibc: {applies}); "
        f"resident {start:.0f} → {kept:.0f} MB inside after the frees → {after:.0f} MB on leaving"
    )
    if applies:
        assert inside < outside  # the first array is faulted in, the others mostly reuse it
        assert kept > start + 50  # the freed block stayed in the heap
    assert after < start + 10  # and went back to the OS on leaving
