"""`python -m fieldline_engine standby` (standby.py): a process warmed up before its job runs the one job
sent on stdin exactly as a cold `python -m fieldline_engine solve --job DIR` would, with the job's memory
limit and environment."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

ENGINE_DIR = Path(__file__).resolve().parents[1]
TESTS_DIR = Path(__file__).resolve().parent


def start_standby(**env: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "fieldline_engine", "standby"],
        cwd=ENGINE_DIR,
        env={**os.environ, "PYTHONPATH": f"{ENGINE_DIR}:{TESTS_DIR}", **env},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_ready(proc: subprocess.Popen) -> None:
    first = proc.stdout.readline()
    assert json.loads(first) == {"event": "ready"}, first


def send(proc: subprocess.Popen, request: dict) -> tuple[list[dict], int]:
    out, err = proc.communicate(json.dumps(request) + "\n", timeout=300)
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert events, err[-2000:]
    return events, proc.returncode


def resistor_job(directory: Path) -> Path:
    mesh = box_mesh((0.02, 0.004, 0.002), (10, 2, 2))
    config = {
        "analysisType": "em",
        "defaultConductivity": 5.8e7,
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 0, 0.0), "voltage": 0.0, "name": "ground"},
            {"faces": faces_on_plane(mesh, 0, 0.02), "voltage": 1e-3, "name": "drive"},
        ],
    }
    directory.mkdir()
    (directory / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    return directory


def test_a_standby_process_gives_the_same_results_as_a_cold_start(engine, tmp_path):
    cold_dir, warm_dir = resistor_job(tmp_path / "cold"), resistor_job(tmp_path / "warm")
    assert engine("solve", cold_dir)[-1]["event"] == "done"
    proc = start_standby()
    wait_ready(proc)
    events, code = send(proc, {"command": "solve", "job": str(warm_dir), "memoryLimitMb": 4096})
    assert code == 0 and events[-1]["event"] == "done", events[-1]
    cold = json.loads((cold_dir / "results.json").read_text())["quantities"]
    warm = json.loads((warm_dir / "results.json").read_text())["quantities"]
    print(f"resistance cold {cold['resistance_ohm']!r} Ω, after standby {warm['resistance_ohm']!r} Ω")
    # Equal to rounding (the same operations; only memory addresses, and so SIMD alignment, differ).
    assert warm["resistance_ohm"] == pytest.approx(cold["resistance_ohm"], rel=1e-12)
    assert warm["terminal_currents_A"] == pytest.approx(cold["terminal_currents_A"], rel=1e-12)


def test_the_job_gets_its_memory_limit_environment_and_title(tmp_path):
    proc = start_standby()
    wait_ready(proc)
    request = {
        "command": "health",
        "job": str(tmp_path),
        "memoryLimitMb": 3000,
        "env": {"FIELDLINE_ENGINE_PLUGIN": "standby_probe", "STANDBY_MARKER": "job-42"},
    }
    events, code = send(proc, request)
    assert code == 0 and events[-1]["event"] == "done", events[-1]
    logs = [e["message"] for e in events if e["event"] == "log"]
    assert logs[0] == "probe command=health rlimit_as_mb=3000 marker=job-42", logs
    assert logs[1].startswith("title /") and logs[1].endswith(
        f"python -m fieldline_engine health --job {tmp_path}"
    ), logs
    # The warm-up imported every family, so a job's own family costs it no import (cold: see test_registry).
    assert logs[2] == "families not imported: none", logs


def test_a_standby_process_exits_quietly_when_no_job_comes():
    proc = start_standby()
    wait_ready(proc)
    out, _err = proc.communicate("", timeout=60)
    assert proc.returncode == 0 and out == ""


def test_a_bad_request_is_refused_with_a_usage_error():
    proc = start_standby()
    wait_ready(proc)
    events, code = send(proc, {"command": "rm", "job": "/"})
    assert code == 2
    assert events == [
        {"event": "error", "code": "usage", "message": "standby: bad job request: unknown command 'rm'"}
    ]


def test_a_standby_process_whose_server_is_gone_exits_before_warming_up():
    proc = start_standby(FIELDLINE_PARENT_PID="1")  # not its parent: the server that started it has died
    out, _err = proc.communicate("", timeout=60)
    assert proc.returncode == 137 and out == ""
