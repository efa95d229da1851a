"""Design studies through the client against the real server: a capacitor swept over its permittivity
(C = ε·A/d, linear in ε), cancelling a study, and refusals raised as FieldlineError."""

from __future__ import annotations

import numpy as np
import pytest
from cad import box_step
from test_client import EPS0, plate_config

from fieldline import Client, FieldlineError, Study


@pytest.fixture(scope="module")
def plate_mesh(account, models_dir):
    with Client(account.origin, account.token) as fl:
        return fl.mesh(fl.upload(box_step(models_dir, "plate.step", 20, 10, 2)), max_size=4, progress=False)


def test_a_capacitor_over_three_permittivities_is_linear_in_epsilon(client: Client, plate_mesh) -> None:
    eps_r = [1.0, 2.2, 4.4]
    study = client.study(
        plate_mesh,
        plate_config(plate_mesh),
        parameters={"defaultPermittivity": [EPS0 * e for e in eps_r]},
        outputs=["capacitance_F"],
        name="plate over εr",
        progress=False,
    )
    assert isinstance(study, Study)
    last = study.last_status
    assert last is not None and last["status"] == "completed"
    assert last["progress"]["completed"] == 3 and last["progress"]["percent"] == 100
    assert [p["status"] for p in study.points] == ["completed"] * 3
    assert all(p["job_id"] for p in study.points)

    rows = study.table()
    assert [r["status"] for r in rows] == ["completed"] * 3
    assert list(rows[0]) == ["point", "defaultPermittivity", "status", "capacitance_F", "error", "job_id"]
    t = study.table(numpy=True)
    c, eps = t["capacitance_F"], t["defaultPermittivity"]
    closed_form = eps * (20e-3 * 10e-3) / 2e-3
    per_eps = c / eps
    linearity = float(np.max(np.abs(per_eps / per_eps[0] - 1)))
    error = float(np.max(np.abs(c / closed_form - 1)))
    print(
        f"study of 3 points: C = {', '.join(f'{v:.6e}' for v in c)} F; C/ε constant to {linearity:.1e}, "
        f"against ε·A/d {error:.1e}"
    )
    assert linearity < 1e-9
    assert error < 1e-3
    assert study.csv().startswith("point,defaultPermittivity,status,capacitance_F,error,job_id\r\n")

    # Listed among the caller's studies; found again by id; each point's job is an ordinary job.
    assert study.id in [s["study_id"] for s in client.studies()]
    again = client.get_study(study.id)
    assert again.points == study.points
    first = client.job(study.points[0]["job_id"] or "").results()
    assert first.quantities["capacitance_F"] == pytest.approx(c[0], rel=1e-12)


def test_a_convergence_study_remeshes_the_upload(client: Client, plate_mesh) -> None:
    # The plate's field is uniform, so every mesh gives ε·A/d: converged at the second point, change ~0.
    study = client.study(
        plate_mesh,
        plate_config(plate_mesh),
        outputs=["capacitance_F"],
        convergence={
            "output": "capacitance_F",
            "tolerance": 1e-3,
            "startSize": 4,
            "ratio": 2,
            "maxPoints": 3,
        },
        progress=False,
    )
    report = study.convergence
    assert report is not None
    print(
        f"convergence study: {report['message']} sizes {report['sizes']}, last change {report['last_change']}"
    )
    assert report["converged"] is True
    assert report["sizes"][:2] == [4, 2]
    assert all(p["mesh_job_id"] for p in study.points)  # each point meshed the upload with its own size
    tets = [p["tetrahedra"] or 0 for p in study.points]
    assert tets[1] > tets[0]
    assert report["value"] == pytest.approx(EPS0 * (20e-3 * 10e-3) / 2e-3, rel=1e-9)


def test_cancel_a_study(client: Client, plate_mesh) -> None:
    # Six points on a plan that runs two at once: cancelled at once, the waiting ones never run.
    study = client.study(
        plate_mesh,
        plate_config(plate_mesh),
        parameters={"defaultPermittivity": [EPS0 * (1 + k) for k in range(6)]},
        outputs=["capacitance_F"],
        wait=False,
    )
    reply = study.cancel()
    print(f"cancel: {reply['message']}")
    assert reply["status"] == "cancelled"
    assert reply["cancelled"] + reply["stopping"] + reply["kept"] == 6
    assert reply["cancelled"] >= 4
    study.wait(timeout=120, progress=False)
    assert study.status()["status"] == "cancelled"
    assert sum(p["status"] == "cancelled" for p in study.points) >= 4


def test_a_refused_study_raises_fieldline_error_with_the_servers_400(client: Client, plate_mesh) -> None:
    before = len(client.studies())
    with pytest.raises(FieldlineError) as err:
        client.study(
            plate_mesh,
            plate_config(plate_mesh),
            parameters={"forceLoads[0].force[2]": [1, 2]},
            outputs=["capacitance_F"],
        )
    print(f"400 as FieldlineError: {err.value!r}")
    assert err.value.status == 400
    assert err.value.code == "invalid_parameter"
    assert "forceLoads[0].force[2]" in err.value.message
    with pytest.raises(FieldlineError) as err:
        client.study(plate_mesh, plate_config(plate_mesh), parameters={"frequency": [0]}, outputs=["nope"])
    assert err.value.status == 400 and err.value.code == "unknown_output"
    assert "capacitance_F" in err.value.message
    assert len(client.studies()) == before  # nothing stored
    with pytest.raises(FieldlineError) as err:
        client.get_study("00000000-0000-4000-8000-000000000000")
    assert err.value.status == 404
