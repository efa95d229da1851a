import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from validation.recorder import RECORDER, write_report

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


@pytest.fixture(autouse=True)
def _validation_clock(request):
    """Validation rows carry the test that recorded them and its time."""
    RECORDER.start_test(request.node.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """With FIELDLINE_VALIDATION_REPORT set (`npm test` sets it), writes the validation report there and
    fails the run when a case of validation/cases.toml recorded no row."""
    target = os.environ.get("FIELDLINE_VALIDATION_REPORT")
    if not target:
        return
    write_report(RECORDER, Path(target))
    missing = RECORDER.missing()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"validation report: {len(RECORDER.rows)} cases written to {target}"
            + (f"; MISSING {len(missing)}: {', '.join(missing)}" if missing else "")
        )
    if missing:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# The validation tests print their errors against closed-form answers; pytest -q would swallow them,
# so the figures are collected and printed once at the end of the run (CI logs keep them).
_FIGURES: list[tuple[str, float, str]] = []
# Capture is at fd level, so OpenCascade's and Netgen's own console output lands here too.
_CHATTER = re.compile(r"\x1b|^\s*\*|^\s*(layer|el)\d+ =|WARNING: Intersecting")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed and report.capstdout.strip():
        _FIGURES.append((report.nodeid, report.duration, report.capstdout.strip()))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not _FIGURES:
        return
    terminalreporter.section("figures printed by the tests")
    for nodeid, seconds, out in _FIGURES:
        name = nodeid.removeprefix("tests/")
        for line in out.splitlines():
            if line.startswith("{") or _CHATTER.search(line):  # protocol events, mesher output
                continue
            terminalreporter.write_line(f"{name} ({seconds:.1f} s): {line}")
