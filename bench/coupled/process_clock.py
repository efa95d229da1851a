"""Whole-process timing with the kernel's own CPU clock, the same on both sides of a pair.

GNU time -v prints user and system seconds cut to two decimals, and /proc/PID/stat counts them in 10 ms ticks,
each rounded down: at the 0.02–0.1 s these small cases take, that is a bias of up to 10–20 ms a figure (on
CalculiX's side it shrank CalculiX's time; on a standby engine's handover it grew Fieldline's). Here both come
from nanosecond and microsecond clocks: a run's CPU is wait4's rusage (user + system of the process and its
threads, µs), and a standby engine's CPU at the handover the scheduler's run time of its threads
(/proc/PID/task/*/schedstat, ns).
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


# The run is started by a small launcher (`python -S`, ≈ 8 MB), not by this process: a child's peak RSS (ru_maxrss)
# includes the image it was forked from, and this bench's Python is ≈ 30 MB, more than CalculiX's whole run.
_LAUNCHER = """
import json, os, sys, time
started = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ,
                      file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
_, status, usage = os.wait4(pid, 0)
print(json.dumps({"exit": os.waitstatus_to_exitcode(status), "wall": time.perf_counter() - started,
                  "cpu": usage.ru_utime + usage.ru_stime, "peak_kb": usage.ru_maxrss}))
"""


def timed(cmd: list[str], cwd: Path, env: dict | None = None) -> dict:
    """Wall and CPU (user + system) seconds and peak RSS (MB) of one run of `cmd`, from wait4."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.run(
            [sys.executable, "-S", "-c", _LAUNCHER, *cmd],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=err,
            check=False,
        )
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    run = json.loads(proc.stdout) if proc.returncode == 0 else {"exit": proc.returncode}
    if run["exit"] != 0:
        raise SystemExit(
            f"{cmd[0]} failed in {cwd} (exit {run['exit']}): {stderr[-2000:]}"
        )
    return {
        "seconds": round(run["wall"], 4),
        "cpu_seconds": round(run["cpu"], 4),
        "peak_mb": round(run["peak_kb"] / 1024, 1),
    }


def cpu_so_far(pid: int) -> float:
    """CPU seconds a process has used, read once it waits (a standby engine blocked on its job line): the
    scheduler brings a thread's run time up to date when the thread stops running, so a running one's lags by up
    to a tick. Its live threads' run time (ns), plus what threads that have already ended used (the tick count's
    excess over it, when there is one)."""
    _wait_until_asleep(pid)
    tasks = Path(f"/proc/{pid}/task")
    live = (
        sum(int((t / "schedstat").read_text().split()[0]) for t in tasks.iterdir())
        / 1e9
    )
    fields = _stat_fields(pid)
    ticks = (
        int(fields[11]) + int(fields[12])
    ) / TICKS  # utime, stime: each rounded down to a tick
    return live + max(0.0, ticks - live)


def _stat_fields(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _wait_until_asleep(pid: int, timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while _stat_fields(pid)[0] == "R" and time.monotonic() < deadline:
        time.sleep(0.0005)
