"""Test-only hooks that give queue tests a job of controllable duration.

Honoured only when the server sets FIELDLINE_TEST_HOOKS=1 (its ENGINE_TEST_HOOKS setting, never set in
production) and the job input carries `test_hooks`. The real solve still runs afterwards.
"""

import time
from typing import Any

from fieldline_engine import protocol


def apply_test_hooks(job: dict[str, Any]) -> None:
    """Called by the CLI only when FIELDLINE_TEST_HOOKS=1 (cli.py)."""
    hooks = job.get("test_hooks")
    if not isinstance(hooks, dict):
        return
    seconds = float(hooks.get("sleep_seconds", 0) or 0)
    deadline = time.monotonic() + max(0.0, min(seconds, 600.0))
    while (left := deadline - time.monotonic()) > 0:
        protocol.progress(1, f"Test hook: waiting {left:.1f} s")
        time.sleep(min(0.2, left))
