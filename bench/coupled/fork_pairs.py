"""A B pairs of a job on the engine's fork server against CalculiX: the product's default path.

The server keeps one fork server per machine (imported and warmed up once) and, ahead of each job, a spare: a
child forked from it (engine/fieldline_engine/forkserver.py, docs/compute.md "Fork server"). The fork server
runs here exactly as the server runs it (bench/magnetics/warm_job.py: the same launcher, environment and job
line), started through wait4_forkserver.py so that its reaping of each job's child records the child's rusage.
Per run, from the handover of the job line:

- `cpu_seconds`: the forked child's **whole** CPU (user + system, wait4, µs), from its fork to its exit —
  the job, the exit (unmapping its pages) and the few ms it ran before the job line, all counted;
- `cpu_after_handover_s`: the same minus what the scheduler said the child had run when it took the job
  line (/proc/PID/task/*/schedstat, ns: process_clock.cpu_so_far);
- `seconds`: wall from the handover to the fork server's reaping of the child (its exit);
- `peak_mb`: the child's peak RSS (its resident share of the fork server's pages included);
- `minor_faults`: the child's minor page faults, copy-on-write ones included.

B is CalculiX when its folder holds a deck (a whole process, wait4, as in pairs.py), else a Fieldline job on the
same fork server (or on one of --b-engine). One thread on both sides (FIELDLINE_THREADS=1).

Usage:
  .venv/bin/python bench/coupled/fork_pairs.py OUT/fieldline OUT/ccx [PAIRS]
  .venv/bin/python bench/coupled/fork_pairs.py OUT/fieldline OUT/structural [PAIRS]   # coupled vs structural alone
  # this engine against another revision's, both through their own fork server:
  git archive REV engine | tar -x -C /tmp/before
  .venv/bin/python bench/coupled/fork_pairs.py OUT/fieldline OUT/fieldline [PAIRS] --b-engine /tmp/before/engine
  # A on a snapshot too (while the checkout changes): --a-engine /tmp/after/engine
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINE = HERE.parents[1] / "engine"
sys.path.insert(0, str(HERE.parents[0] / "magnetics"))
sys.path.insert(0, str(HERE))

from ab_pairs import ab_pairs
from cylinder import engine_env
from pairs import command
from process_clock import cpu_so_far, timed
from warm_job import ForkServer


class RecordedForkServer(ForkServer):
    """warm_job's fork server, each job's child timed by wait4 (wait4_forkserver.py)."""

    def __init__(self, engine: Path):
        self.log = Path(tempfile.mkdtemp(prefix="fork-pairs-")) / "reaped.jsonl"
        self.log.touch()
        try:
            super().__init__(
                sys.executable,
                engine,
                server_argv=[str(HERE / "wait4_forkserver.py"), str(self.log)],
            )
        except BaseException:
            self.log.unlink()
            self.log.parent.rmdir()
            raise

    def spare_ready(self) -> None:
        (child,) = (
            Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
            .read_text()
            .split()
        )
        self.child = int(child)
        self.child_cpu_at_handover = cpu_so_far(self.child)
        self.handover_at = time.monotonic()

    def timed_job(self, job_dir: Path) -> dict:
        self.run_job(job_dir.resolve())
        record = json.loads(self.log.read_text().splitlines()[-1])
        if record["pid"] != self.child:
            raise RuntimeError(
                f"reaped {record['pid']}, not the job's child {self.child}"
            )
        cpu = record["user"] + record["sys"]
        return {
            "seconds": round(record["reaped_at"] - self.handover_at, 4),
            "cpu_seconds": round(cpu, 4),
            "cpu_after_handover_s": round(cpu - self.child_cpu_at_handover, 4),
            "peak_mb": round(record["peak_kb"] / 1024, 1),
            "minor_faults": record["minor_faults"],
        }

    def close(self) -> None:
        super().close()
        self.log.unlink()
        self.log.parent.rmdir()


def pairs(
    a: Path,
    b: Path,
    count: int,
    b_engine: Path | None = None,
    a_engine: Path | None = None,
) -> dict:
    os.environ["FIELDLINE_THREADS"] = (
        "1"  # warm_job.engine_env passes it on; CalculiX runs one thread too
    )
    servers = [RecordedForkServer(a_engine or ENGINE)]
    try:
        if (
            b / "job.json"
        ).exists():  # a Fieldline job: on a fork server too (its own, for another engine)
            if b_engine is not None:
                servers.append(RecordedForkServer(b_engine))
            run_b = lambda: servers[-1].timed_job(b)
            label_b = f"{b} on a fork server" + (f" of {b_engine}" if b_engine else "")
        else:
            env = engine_env()
            run_b = lambda: timed(command(b), b, env)
            label_b = str(b)
        load = os.getloadavg()[0]
        out = ab_pairs(
            lambda: servers[0].timed_job(a), run_b, count, label_a="A (fork server)"
        )
    finally:
        for server in servers:
            server.close()
    label_a = f"{a} on a fork server" + (f" of {a_engine}" if a_engine else "")
    return {"A": label_a, "B": label_b, "load": [load, os.getloadavg()[0]], **out}


if __name__ == "__main__":
    args = sys.argv[1:]
    engines: dict[str, Path | None] = {"--a-engine": None, "--b-engine": None}
    for flag in engines:
        if flag in args:
            at = args.index(flag)
            engines[flag] = Path(args[at + 1]).resolve()
            del args[at : at + 2]
    if len(args) < 2:
        raise SystemExit(__doc__)
    result = pairs(
        Path(args[0]),
        Path(args[1]),
        int(args[2]) if len(args) > 2 else 5,
        engines["--b-engine"],
        engines["--a-engine"],
    )
    print(json.dumps(result, indent=2))
