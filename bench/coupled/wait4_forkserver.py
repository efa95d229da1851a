"""`python wait4_forkserver.py LOG --socket PATH`: the engine's fork server, unchanged, whose reaping of each
forked job records that child's rusage (fork_pairs.py).

The fork server reaps a job's child with os.waitpid, which discards the child's resource usage; its
/proc/PID/stat cutime and cstime keep it, but in 10 ms ticks. Here os.waitpid is os.wait4 (the same call for
the kernel) and, in the fork server's own process, each reaped child's user + system CPU (µs: the whole
process from its fork to its exit, threads and exit included), peak RSS, minor page faults (copy-on-write ones included) and the monotonic time of the reaping
are appended to LOG as one JSON line. Nothing else differs: `python -m fieldline_engine forkserver` runs.
"""

import json
import os
import runpy
import sys
import time

_LOG = sys.argv.pop(1)
_SERVER = os.getpid()
_wait4 = os.wait4


def _waitpid_recorded(pid: int, options: int) -> tuple[int, int]:
    got, status, usage = _wait4(pid, options)
    if got and os.getpid() == _SERVER:
        with open(_LOG, "a") as log:
            record = {
                "pid": got,
                "reaped_at": time.monotonic(),
                "user": usage.ru_utime,
                "sys": usage.ru_stime,
                "peak_kb": usage.ru_maxrss,
                "minor_faults": usage.ru_minflt,
            }
            log.write(json.dumps(record) + "\n")
    return got, status


os.waitpid = _waitpid_recorded
sys.path.pop(
    0
)  # this folder: the engine's imports see what `python -m fieldline_engine` sees
sys.argv = ["fieldline_engine", "forkserver", *sys.argv[1:]]
runpy.run_module("fieldline_engine", run_name="__main__", alter_sys=True)
