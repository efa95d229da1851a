"""Peak memory of a whole process tree (a job's engine with its forked port processes, or mpiexec's ranks),
sampled from outside every 0.1 s while it runs.

Three sums, because forked processes share the parent's pages copy-on-write:
- `tree_resident_peak_gb`: the peak of the first process's resident size plus every other process's
  private pages (those it shares with no one): each physical page counted once, libraries included;
- `tree_pss_peak_gb`: the peak of the summed proportional set size (each shared page counted once, split
  among its sharers): the physical memory the job holds;
- `tree_rss_peak_gb`: the peak of the summed resident sizes (a shared page counted in every process that
  maps it): what adding up each process's own figure says, an upper bound.
MPI ranks share nothing but libraries, so there the two agree to within the libraries.
"""

import os
import subprocess
import threading
import time
from typing import Self

PERIOD_S = 0.1


def _children(pid: int) -> list[int]:
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        todo += _children(p)
    return pids


def _rollup_kb(pid: int) -> tuple[int, int, int]:
    """(Pss, Rss, Private_Clean + Private_Dirty) of one process, in kB."""
    pss = rss = private = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith(("Private_Clean:", "Private_Dirty:")):
                    private += int(line.split()[1])
    except OSError:
        pass
    return pss, rss, private


class TreeSampler:
    """`with TreeSampler(pid) as s: …` then s.peaks(); `stop()` freezes the peaks early (e.g. when the
    measured part of a run is over and a reference solve follows)."""

    def __init__(self, pid: int):
        self.pid = pid
        self.pss_kb = self.rss_kb = self.resident_kb = 0
        self.processes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            pids = _tree(self.pid)
            sums = [_rollup_kb(p) for p in pids]
            self.pss_kb = max(self.pss_kb, sum(s[0] for s in sums))
            self.rss_kb = max(self.rss_kb, sum(s[1] for s in sums))
            resident = sums[0][1] + sum(s[2] for s in sums[1:])
            self.resident_kb = max(self.resident_kb, resident)
            self.processes = max(self.processes, sum(1 for s in sums if s[1] > 0))
            time.sleep(PERIOD_S)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def __exit__(self, *_exc) -> None:
        self.stop()
        self._thread.join()

    def peaks(self) -> dict:
        return {
            "tree_resident_peak_gb": round(self.resident_kb * 1024 / 1e9, 3),
            "tree_pss_peak_gb": round(self.pss_kb * 1024 / 1e9, 3),
            "tree_rss_peak_gb": round(self.rss_kb * 1024 / 1e9, 3),
            "tree_processes": self.processes,
        }


def run_sampled(
    args: list[str], env: dict, first_row_stops: bool = False
) -> tuple[subprocess.CompletedProcess, dict]:
    """Runs `args`, sampling its tree's memory; with `first_row_stops` the peaks freeze at the child's
    first JSON line on stdout (it prints its figures before any reference solve)."""
    proc = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    lines: list[str] = []
    with TreeSampler(proc.pid) as sampler:
        err_chunks: list[str] = []
        err_thread = threading.Thread(
            target=lambda: err_chunks.append(proc.stderr.read()), daemon=True
        )
        err_thread.start()
        for line in proc.stdout:
            lines.append(line)
            if first_row_stops and line.startswith("{"):
                sampler.stop()
        proc.wait()
        err_thread.join()
    done = subprocess.CompletedProcess(
        args, proc.returncode, "".join(lines), "".join(err_chunks)
    )
    return done, sampler.peaks()
