"""The engine process ends straight after its final event (`__main__.py` skips the interpreter's teardown,
≈ 0.09 s of NGSolve and OpenCascade objects): its exit code and every protocol line must still arrive."""

import json
import os
import subprocess
import sys
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parents[1]


def run(*args: str) -> tuple[list[dict], int]:
    proc = subprocess.run(
        [sys.executable, "-m", "fieldline_engine", *args],
        cwd=ENGINE_DIR,
        env={**os.environ, "PYTHONPATH": str(ENGINE_DIR)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")], proc.returncode


def test_a_finished_command_exits_0_after_its_done_event():
    events, code = run("health")
    assert code == 0 and events[-1]["event"] == "done", events


def test_a_failed_command_exits_1_after_its_error_event(tmp_path):
    events, code = run("solve", "--job", str(tmp_path))  # no job.json there
    assert code == 1
    assert events[-1] == {"event": "error", "code": "invalid_input", "message": f"no job.json in {tmp_path}"}
