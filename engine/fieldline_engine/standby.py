"""`python -m fieldline_engine standby`: an engine process started before its job, warmed up, that runs
one job read from stdin.

The server keeps one or more ready (ENGINE_STANDBY, docs/compute.md) so that a job does not wait for
Python, NumPy, SciPy and NGSolve to load (≈ 0.3–0.5 s) nor pay their first-use costs (code paged in,
element tables built: ≈ 15–25 % of a 10 ms solve). The server spawns it exactly as it spawns a job's engine
(own process group, network namespace, parent watch), so a job's isolation is unchanged, and the job's
memory limit is applied when the job arrives, before its input is read, as at a cold start.

Protocol: after warming up, one line {"event":"ready"} on the protocol stream; then one JSON line on stdin,
{"command": "solve", "job": "/dir" | null, "memoryLimitMb": 8192, "env": {...}}, after which the process
behaves as `python -m fieldline_engine <command> --job <dir>` with that environment. End of input without
a line (the server no longer needs it): exit 0.
"""

import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from fieldline_engine import protocol
from fieldline_engine.errors import EngineError


def serve_one(run_command) -> int:
    """Warm up, announce readiness, run the one job that arrives. `run_command(command, job)` runs it."""
    if not warm():
        return 3
    return run_one(run_command)


def warm() -> bool:
    """The generic warm-up (core/warm_up.py); False (and the trace on stderr) when it failed."""
    try:
        from fieldline_engine.core.warm_up import warm_up

        warm_up()
    except Exception:  # noqa: BLE001 - a spare that cannot warm up is not used: the server starts jobs cold
        traceback.print_exc(file=sys.stderr)
        return False
    return True


def run_one(run_command) -> int:
    """A warmed-up process (this one, or a spare forked from the fork server, forkserver.py): announce
    readiness, read the one job line, run it."""
    protocol.ready()
    line = sys.stdin.readline()
    if not line.strip():
        return 0
    try:
        command, job = _accept(json.loads(line))
    except (ValueError, EngineError) as exc:
        protocol.error("usage", f"standby: bad job request: {exc}")
        return 2
    return run_command(command, job)


def _accept(request: dict[str, Any]) -> tuple[str, Path | None]:
    from fieldline_engine.cli import COMMANDS

    command = request.get("command")
    if command not in COMMANDS:
        raise EngineError("usage", f"unknown command {command!r}")
    env = request.get("env") or {}
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        raise EngineError("usage", "env must map names to strings")
    os.environ.update(env)
    limit = request.get("memoryLimitMb")
    if limit is not None:
        os.environ["FIELDLINE_MEMORY_LIMIT_MB"] = str(int(limit))
    job = request.get("job")
    _retitle(command, job)
    return command, Path(job) if job else None


def _retitle(command: str, job: str | None) -> None:
    """`ps` (and the server's fault tests) see the command line a cold start of this job would have."""
    from setproctitle import setproctitle

    setproctitle(
        " ".join([sys.executable, "-m", "fieldline_engine", command, *(["--job", job] if job else [])])
    )
