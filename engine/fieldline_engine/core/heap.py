"""Keeping freed large blocks in the process heap for a stretch of code that allocates and frees the same big
arrays over and over (LOBPCG's n × block work arrays).

glibc serves an allocation above its mmap threshold (at most 32 MiB) with a fresh mmap and unmaps it on free,
so every such NumPy temporary is page-faulted in and zeroed again by the kernel. At 1.05 M DOFs LOBPCG's
n × 15 arrays are 126 MB each and about fifty are made per iteration: 63 of the 501 CPU s of the 1 M bench run
were system time. With mmap switched off (M_MMAP_MAX = 0) and no trimming, freed blocks are reused from the
heap: on LOBPCG's dense work alone at n = 500 k (12 iterations) system time fell from 24.7 to 1.4 CPU s at the
same peak RSS (+4 %). On leaving, the defaults come back and malloc_trim returns the free heap to the OS.
"""

import ctypes
import ctypes.util
from collections.abc import Iterator
from contextlib import contextmanager

_M_TRIM_THRESHOLD = -1
_M_MMAP_MAX = -4
_DEFAULT_MMAP_MAX = 65536
_DEFAULT_TRIM_THRESHOLD = 128 * 1024
_NEVER = 2**31 - 1  # the largest trim threshold mallopt takes


def _glibc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


@contextmanager
def reuse_freed_blocks() -> Iterator[bool]:
    """Inside: large blocks come from the heap and stay there when freed (yields whether that applies: glibc
    only; elsewhere nothing changes)."""
    libc = _glibc()
    if libc is None:
        yield False
        return
    libc.mallopt(_M_MMAP_MAX, 0)
    libc.mallopt(_M_TRIM_THRESHOLD, _NEVER)
    try:
        yield True
    finally:
        libc.mallopt(_M_MMAP_MAX, _DEFAULT_MMAP_MAX)
        libc.mallopt(_M_TRIM_THRESHOLD, _DEFAULT_TRIM_THRESHOLD)
        libc.malloc_trim(ctypes.c_size_t(0))
