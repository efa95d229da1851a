"""The client against a real server: upload a STEP, mesh, run, compare with closed form; the errors a
script must tell apart (402, 413, 429, 401) arrive as FieldlineError with the server's status and text."""

from __future__ import annotations

import httpx
import meshio
import numpy as np
import pytest
from cad import box_step
from conftest import Account, create_token, register

from fieldline import Client, FieldlineError

EPS0 = 8.854e-12


def plate_config(mesh, eps_r: float = 1.0) -> dict:
    z = mesh.vertices[:, 2]
    return {
        "analysisType": "em",
        "frequency": 0,
        "defaultPermittivity": EPS0 * eps_r,
        "dirichletFaceConditions": [
            {"faces": mesh.faces_on_plane("z", z.min()), "voltage": 0},
            {"faces": mesh.faces_on_plane("z", z.max()), "voltage": 2},
        ],
    }


def test_upload_mesh_run_matches_the_parallel_plate_closed_form(client: Client, models_dir, tmp_path) -> None:
    step = box_step(models_dir, "plate.step", 20, 10, 2)
    upload = client.upload(step)
    assert upload.units == "mm"
    assert upload.surface_count == 6  # a box's six CAD faces
    mesh = client.mesh(upload, max_size=4)
    assert len(mesh.tetrahedra) > 0
    assert set(np.unique(mesh.face_patches)) == set(range(1, 7))  # CAD faces 1..6
    job = client.run(mesh, plate_config(mesh, eps_r=2.0), progress=False)
    results = job.results()

    closed_form = EPS0 * 2.0 * (20e-3 * 10e-3) / 2e-3
    c = results.quantities["capacitance_F"]
    error = abs(c - closed_form) / closed_form
    print(
        f"parallel plate through the client: C = {c:.6e} F, closed form {closed_form:.6e} F, error {error:.2e}"
    )
    assert error < 1e-3
    # E = V/d everywhere (uniform field), as numpy arrays keyed by catalogue name.
    e = results.fields["electric_field"]
    assert e.shape == (len(results.vertices), 3)
    e_error = np.max(np.abs(np.linalg.norm(e, axis=1) - 2 / 2e-3)) / (2 / 2e-3)
    print(f"|E| against V/d: worst relative error {e_error:.2e}")
    assert e_error < 1e-3
    assert results.field_info["potential"].unit == "V"

    # The binary twin carries the same fields (float32) and becomes a VTU that meshio reads back.
    vtu = job.save_vtu(tmp_path / "plate.vtu")
    back = meshio.read(vtu)
    assert back.cells_dict["tetra"].shape == results.tetrahedra.shape
    np.testing.assert_allclose(back.point_data["potential"], results.fields["potential"], rtol=0, atol=1e-5)


def test_someone_elses_job_is_404_and_a_read_token_cannot_run(account: Account, client: Client) -> None:
    _, _, other_cookie = register(account.origin)
    other = Client(account.origin, create_token(account.origin, other_cookie))
    mine = client.submit(
        {"vertices": [[0, 0, 0]], "faces": [[0, 0, 0]]},
        {"analysisType": "tetra-only", "meshingOnly": True},
        kind="meshing",
    )
    with pytest.raises(FieldlineError) as err:
        other.job(mine.id)
    assert err.value.status == 404
    reader = Client(account.origin, create_token(account.origin, account.cookie, scope="read"))
    with pytest.raises(FieldlineError) as err:
        reader.submit({"vertices": [[0, 0, 0]]}, {"analysisType": "tetra-only"})
    assert err.value.status == 403
    assert err.value.code == "insufficient_scope"
    assert reader.materials()  # reading is what a read token is for


def test_a_revoked_token_is_refused_at_once(account: Account) -> None:
    token = create_token(account.origin, account.cookie, name="to revoke")
    fl = Client(account.origin, token)
    assert fl.subscription()["plan"] == "token"
    listed = httpx.get(f"{account.origin}/api/user/tokens", headers={"cookie": account.cookie}).json()[
        "tokens"
    ]
    token_id = next(t["id"] for t in listed if t["name"] == "to revoke")
    assert (
        httpx.delete(
            f"{account.origin}/api/user/tokens/{token_id}", headers={"cookie": account.cookie}
        ).status_code
        == 200
    )
    with pytest.raises(FieldlineError) as err:
        fl.subscription()
    assert err.value.status == 401
    assert "revoked" in err.value.message


def test_402_when_the_balance_does_not_cover_the_estimate(account: Account, models_dir) -> None:
    # A new account (no welcome grant on this server) can upload and mesh (meshing is free), not run.
    _, _, cookie = register(account.origin)
    fl = Client(account.origin, create_token(account.origin, cookie))
    mesh = fl.mesh(fl.upload(box_step(models_dir, "plate.step", 20, 10, 2)), max_size=4, progress=False)
    assert fl.subscription()["tokens_available"] == 0
    with pytest.raises(FieldlineError) as err:
        fl.run(mesh, plate_config(mesh), progress=False)
    print(f"402 as FieldlineError: {err.value!r}")
    assert err.value.status == 402
    assert err.value.payment_required and not err.value.too_large and not err.value.rate_limited
    assert err.value.code == "insufficient_balance"
    assert "Buy tokens" in err.value.message


def test_413_when_the_model_is_over_the_upload_limit(client: Client, tmp_path) -> None:
    # This test server caps uploads at 1 MB (MAX_UPLOAD_MB); a 1.6 MB binary STL is over it.
    count = 32_000
    stl = tmp_path / "big.stl"
    stl.write_bytes(
        b"\0" * 80
        + count.to_bytes(4, "little")
        + (b"\0" * 12 + np.arange(9, dtype="<f4").tobytes() + b"\0\0") * count
    )
    with pytest.raises(FieldlineError) as err:
        client.upload(stl, units="mm")
    print(f"413 as FieldlineError: {err.value!r}")
    assert err.value.status == 413
    assert err.value.too_large and not err.value.payment_required and not err.value.rate_limited
    assert "1 MB upload limit" in err.value.message


def test_429_when_too_many_simulations_run_at_once(client: Client, models_dir) -> None:
    # The token plan runs 2 simulations at once; a third submitted meanwhile is refused with 429.
    mesh = client.mesh(
        client.upload(box_step(models_dir, "plate.step", 20, 10, 2)), max_size=4, progress=False
    )
    running = [client.run(mesh, plate_config(mesh), wait=False) for _ in range(2)]
    try:
        with pytest.raises(FieldlineError) as err:
            client.run(mesh, plate_config(mesh), wait=False)
        print(f"429 as FieldlineError: {err.value!r}")
        assert err.value.status == 429
        assert err.value.rate_limited and not err.value.payment_required and not err.value.too_large
        assert err.value.code == "concurrency_limit"
    finally:
        for job in running:
            job.wait(progress=False)
