"""`fieldline run | status | download` end to end against the real server, with their exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import meshio
import numpy as np
import pytest
from cad import box_step
from conftest import Account

FIELDLINE = Path(sys.executable).parent / "fieldline"


def cli(
    account: Account, *args: str, token: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FIELDLINE_URL": account.origin, "FIELDLINE_TOKEN": token or account.token}
    return subprocess.run(
        [str(FIELDLINE), *args], env=env, capture_output=True, text=True, cwd=cwd, timeout=600
    )


def test_help_on_each_command(account: Account) -> None:
    for args in (
        ["--help"],
        ["run", "--help"],
        ["study", "--help"],
        ["status", "--help"],
        ["download", "--help"],
    ):
        done = cli(account, *args)
        assert done.returncode == 0, done.stderr
        assert "usage: fieldline" in done.stdout
    assert "--physics" in cli(account, "run", "--help").stdout
    assert "--format" in cli(account, "download", "--help").stdout
    assert "--sweep" in cli(account, "study", "--help").stdout


def test_study_sweeps_a_capacitor_and_writes_its_table(
    account: Account, models_dir: Path, tmp_path: Path
) -> None:
    step = box_step(models_dir, "plate.step", 20, 10, 2)
    from fieldline import Client

    with Client(account.origin, account.token) as fl:
        mesh = fl.mesh(fl.upload(step), max_size=4, progress=False)
    z = mesh.vertices[:, 2]
    setup = tmp_path / "plate.json"
    setup.write_text(
        json.dumps(
            {
                "mesh": {"max_size": 4},
                "config": {
                    "frequency": 0,
                    "defaultPermittivity": 8.854e-12,
                    "dirichletFaceConditions": [
                        {"faces": mesh.faces_on_plane("z", z.min()), "voltage": 0},
                        {"faces": mesh.faces_on_plane("z", z.max()), "voltage": 1},
                    ],
                },
            }
        )
    )
    table = tmp_path / "plate.csv"
    done = cli(
        account,
        "study",
        str(step),
        "--physics",
        "em",
        "--config",
        str(setup),
        "--sweep",
        "defaultPermittivity=8.854e-12,1.7708e-11",
        "--output",
        "capacitance_F",
        "--out",
        str(table),
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["status"] == "completed" and summary["progress"]["completed"] == 2
    lines = table.read_text().splitlines()
    assert lines[0] == "point,defaultPermittivity,status,capacitance_F,error,job_id"
    c = [float(line.split(",")[3]) for line in lines[1:]]
    print(f"fieldline study: C = {c[0]:.6e}, {c[1]:.6e} F (ratio {c[1] / c[0]:.12f})")
    assert c[1] / c[0] == pytest.approx(2.0, rel=1e-9)
    bad = cli(account, "study", str(step), "--physics", "em", "--sweep", "frequency", "--output", "x")
    assert bad.returncode == 2 and "--sweep 'frequency'" in bad.stderr


def test_run_a_step_part_then_status_and_download(account: Account, models_dir: Path, tmp_path: Path) -> None:
    step = box_step(models_dir, "bar.step", 100, 10, 10)
    setup = tmp_path / "setup.json"
    # Faces by id: the bar's x = 0 and x = 100 end faces, found from a meshing of the same part the
    # way the browser's face picker lists them — here through the client's own mesh call.
    from fieldline import Client

    with Client(account.origin, account.token) as fl:
        mesh = fl.mesh(fl.upload(step), max_size=5, progress=False)
    x = mesh.vertices[:, 0]
    setup.write_text(
        json.dumps(
            {
                "units": "mm",
                "mesh": {"max_size": 5},
                "config": {
                    "meshOrder": 2,
                    "bodyMaterials": [{"region": 0, "material": "steel"}],
                    "fixedSupports": [{"faces": mesh.faces_on_plane("x", x.min()), "name": "wall"}],
                    "forceLoads": [{"faces": mesh.faces_on_plane("x", x.max()), "force": [0, 0, -100]}],
                },
            }
        )
    )
    out = tmp_path / "results"
    done = cli(
        account,
        "run",
        str(step),
        "--physics",
        "structural",
        "--config",
        str(setup),
        "--out",
        str(out),
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    job_id = summary["job_id"]
    results = json.loads((out / "results.json").read_text())
    assert results["fields"]["von_mises"]["unit"] == "Pa"
    vtu = meshio.read(out / "results.vtu")
    assert "von_mises" in vtu.point_data or "von_mises" in vtu.cell_data
    assert vtu.point_data["displacement"].shape == (len(vtu.points), 3)
    assert np.abs(vtu.point_data["displacement"][:, 2]).max() > 0

    status = cli(account, "status", job_id)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["status"] == "completed"

    target = tmp_path / "again.json"
    downloaded = cli(account, "download", job_id, "--format", "json", "-o", str(target))
    assert downloaded.returncode == 0, downloaded.stderr
    assert json.loads(target.read_text())["fields"].keys() == results["fields"].keys()
    # A structural job has no S-parameters: the server's 404 is exit code 2 with its message.
    touchstone = cli(account, "download", job_id, "--format", "touchstone", cwd=tmp_path)
    assert touchstone.returncode == 2
    assert "No S-parameters for this job" in touchstone.stderr


def test_exit_codes_for_refusals(account: Account, models_dir: Path, tmp_path: Path) -> None:
    step = box_step(models_dir, "bar.step", 100, 10, 10)
    bad_token = cli(account, "status", "00000000-0000-4000-8000-000000000000", token="fl_" + "A" * 43)
    assert bad_token.returncode == 3
    assert "invalid, revoked or expired" in bad_token.stderr
    unknown = cli(account, "status", "00000000-0000-4000-8000-000000000000")
    assert unknown.returncode == 2
    missing = cli(account, "run", str(tmp_path / "nope.step"), "--physics", "structural")
    assert missing.returncode == 2
    # A config the server takes but the engine refuses (free to slide in x and y): exit code 1 with its sentence.
    from fieldline import Client

    with Client(account.origin, account.token) as fl:
        mesh = fl.mesh(fl.upload(step), max_size=5, progress=False)
    setup = tmp_path / "sliding.json"
    setup.write_text(
        json.dumps(
            {
                "displacementConditions": [
                    {"faces": mesh.faces_on_plane("z", 0), "displacement": [None, None, 0]}
                ],
                "forceLoads": [{"faces": mesh.faces_on_plane("x", 100), "force": [0, 0, -1]}],
            }
        )
    )
    failed = cli(
        account,
        "run",
        str(step),
        "--physics",
        "structural",
        "--config",
        str(setup),
        "--out",
        str(tmp_path / "r"),
        "--no-progress",
    )
    assert failed.returncode == 1, failed.stderr
    assert "can still translate along x and y" in failed.stderr
    # The server's 400 for a config it refuses outright (no supports at all) is a usage error, exit code 2.
    refused = cli(
        account, "run", str(step), "--physics", "structural", "--out", str(tmp_path / "r2"), "--no-progress"
    )
    assert refused.returncode == 2
    assert "The model has no supports" in refused.stderr
