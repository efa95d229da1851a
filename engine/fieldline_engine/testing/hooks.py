"""Test-only hooks that give queue tests a job of controllable duration or memory.

An engine plugin (cli.py's FIELDLINE_ENGINE_PLUGIN): the server names this module only when its
ENGINE_TEST_HOOKS setting is on (never in production), and the hooks act only when the job input carries
`test_hooks`. The real solve still runs afterwards.
"""

import time
from pathlib import Path
from typing import Any

from fieldline_engine import protocol
from fieldline_engine.io.job_files import read_job


def before_command(command: str, job_dir: Path | None) -> None:
    if command == "solve" and job_dir is not None and (job_dir / "job.json").is_file():
        apply_test_hooks(read_job(job_dir))


def apply_test_hooks(job: dict[str, Any]) -> None:
    hooks = job.get("test_hooks")
    if not isinstance(hooks, dict):
        return
    megabytes = float(hooks.get("allocate_mb", 0) or 0)
    if megabytes > 0:
        # A job that needs more memory than its limit, whether it started cold or on a standby process.
        import numpy as np

        np.ones(int(megabytes * 2**20 / 8))
    seconds = float(hooks.get("sleep_seconds", 0) or 0)
    deadline = time.monotonic() + max(0.0, min(seconds, 600.0))
    while (left := deadline - time.monotonic()) > 0:
        protocol.progress(1, f"Test hook: waiting {left:.1f} s")
        time.sleep(min(0.2, left))
