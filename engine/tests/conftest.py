import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the engine CLI does (limits.limit_blas_threads)

ENGINE_DIR = Path(__file__).resolve().parents[1]


def run_engine_command(
    command: str, job_dir: Path | None = None, timeout: float = 300
) -> list[dict[str, Any]]:
    """Runs the engine exactly as the server does and returns the protocol events it printed."""
    args = [sys.executable, "-m", "fieldline_engine", command]
    if job_dir is not None:
        args += ["--job", str(job_dir)]
    env = {**os.environ, "PYTHONPATH": str(ENGINE_DIR), "FIELDLINE_MEMORY_LIMIT_MB": "4096"}
    proc = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env, cwd=ENGINE_DIR)
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert events, f"no protocol output; stderr:\n{proc.stderr[-2000:]}"
    return events


@pytest.fixture
def engine():
    return run_engine_command
