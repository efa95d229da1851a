"""A Fieldline job run as the product runs it: through the engine's fork server (ENGINE_FORK_SERVER, default on;
engine/fieldline_engine/forkserver.py, docs/compute.md "Fork server").

The server keeps one fork server per machine (imported and warmed up once) and, before a job arrives, a spare:
`python -S -I spare_launcher.py SOCKET`, whose forked, already-imported child waits for one job line on stdin.
A job then costs the forked child's CPU from that line to its result (job.json read, model, solve, quantities,
results.json and the binary twin written). This module does exactly that, outside the server, with the
environment the server gives the engine (server/src/engine/engine-process.ts: one BLAS/OpenMP thread,
PYTHONPATH = the engine folder, cwd = the engine folder):

  start    the fork server (not timed: once per machine), wait for {"event":"ready"}
  per job  spawn a launcher (not timed: the server does it before the job arrives), wait for the child's
           {"event":"ready"}; then write the job line and time to {"event":"done"} (wall), and take the
           forked child's CPU from the fork server's cutime + cstime (/proc/PID/stat: the CPU of the children it
           has reaped; it reaps the job's child before the launcher exits). The launcher's own CPU (a stdlib-only
           Python, ≈ 20 ms, spent before the job) is reported apart.

Nothing here is a stand-in: the same forkserver.py, spare_launcher.py, standby.py and `solve` command run.
"""

import json
import os
import resource
import subprocess
import tempfile
import time
from pathlib import Path

CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def engine_env(engine: Path) -> dict[str, str]:
    """The server's engine environment (engine-process.ts), without its parent-pid watch."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(engine),
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "FIELDLINE_THREADS": os.environ.get("FIELDLINE_THREADS", ""),
    }


def _children_cpu(pid: int) -> tuple[float, float]:
    """(cutime, cstime) of a process: the user and system CPU seconds of the children it has waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # after the ")" field 3 (state) is index 0: cutime and cstime are fields 16 and 17
    return int(fields[13]) / CLOCK_TICK, int(fields[14]) / CLOCK_TICK


class ForkServer:
    def __init__(self, python: str, engine: Path, server_argv: list[str] | None = None):
        """`server_argv`: what follows `python` to start the fork server (default `-m fieldline_engine
        forkserver`; bench/coupled/fork_pairs.py starts the same fork server through a wait4 recorder)."""
        self.python = python
        self.engine = engine
        self.env = engine_env(engine)
        self.dir = tempfile.mkdtemp(prefix="bench-fork-")
        self.socket = os.path.join(self.dir, "s1")
        self.proc = subprocess.Popen(
            [
                python,
                *(server_argv or ["-m", "fieldline_engine", "forkserver"]),
                "--socket",
                self.socket,
            ],
            cwd=engine,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        line = self.proc.stdout.readline()
        if '"ready"' not in line:
            raise RuntimeError(f"the fork server did not start: {line!r}")

    def run_job(self, job_dir: Path, command: str = "solve") -> dict:
        before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
        launcher = subprocess.Popen(
            [
                self.python,
                "-S",
                "-I",
                str(self.engine / "fieldline_engine" / "spare_launcher.py"),
                self.socket,
            ],
            cwd=self.engine,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        line = launcher.stdout.readline()
        if '"ready"' not in line:
            raise RuntimeError(f"the spare did not get ready: {line!r}")
        self.spare_ready()
        cpu_before = _children_cpu(self.proc.pid)
        started = time.perf_counter()
        launcher.stdin.write(
            json.dumps(
                {
                    "command": command,
                    "job": str(job_dir),
                    "memoryLimitMb": 8192,
                    "env": {},
                }
            )
            + "\n"
        )
        launcher.stdin.flush()
        final = None
        for raw in launcher.stdout:
            event = json.loads(raw)
            if event.get("event") in ("done", "error"):
                final = event
                wall = time.perf_counter() - started
                break
        launcher.stdin.close()
        launcher.wait()
        if final is None or final["event"] != "done":
            raise RuntimeError(f"the job failed: {final}")
        # the fork server reaps the child (cutime grows) before it reports the exit the launcher waits for
        cpu_after = _children_cpu(self.proc.pid)
        job_user, job_sys = cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1]
        after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
        launcher_cpu = (after_children.ru_utime + after_children.ru_stime) - (
            before_children.ru_utime + before_children.ru_stime
        )
        return {
            "job_cpu_s": round(job_user + job_sys, 3),
            "job_user_s": round(job_user, 3),
            "job_sys_s": round(job_sys, 3),
            "job_wall_s": round(wall, 3),
            "launcher_cpu_s": round(launcher_cpu, 3),
        }

    def spare_ready(self) -> None:
        """Called once the forked spare waits for its job line, just before it is handed the job (a subclass
        reads its clocks here)."""

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        for name in os.listdir(self.dir):
            os.unlink(os.path.join(self.dir, name))
        os.rmdir(self.dir)


def write_job(job_dir: Path, config: dict, mesh_data: dict) -> None:
    """job.json as the server stages it: the analysis config and the mesh in the upload format."""
    job_dir.mkdir(parents=True, exist_ok=True)
    (job_dir / "job.json").write_text(
        json.dumps({"config": config, "mesh_data": mesh_data})
    )


def read_result(job_dir: Path) -> dict:
    return json.loads((job_dir / "results.json").read_text())
