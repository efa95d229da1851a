"""Under `linearSolver: auto` a CG run that stalls gives way to the factorisation (core/linear_solve.py): a plate
one element thick, where the vertex coarse space locks in bending, is finished directly and says so."""

import math

import pytest

from fieldline_engine.core import linear_solve
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.structural import static
from fieldline_engine.structural.analysis import StructuralAnalysis
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

LENGTH, WIDTH, THICKNESS = 1.0, 0.1, 0.002
E, FORCE = 200e9, 1000.0


def _plate_config(mesh: dict, solver: str) -> dict:
    return {
        "analysisType": "structural",
        "youngsModulus": E,
        "poissonRatio": 0.3,
        "meshOrder": 2,
        "linearSolver": solver,
        "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
        "forceLoads": [{"faces": faces_on_plane(mesh, 0, LENGTH), "force": [0, 0, -FORCE]}],
    }


def test_a_stalled_cg_on_a_thin_plate_is_finished_by_the_factorisation(monkeypatch):
    # 14 k DOFs: `auto` would factor it outright; below the threshold it takes CG, as a larger plate would.
    monkeypatch.setattr(static, "TWO_LEVEL_DIRECT_MAX_DOFS", 10_000)
    monkeypatch.setattr(linear_solve, "TWO_LEVEL_DIRECT_MAX_DOFS", 10_000)
    mesh = box_mesh((LENGTH, WIDTH, THICKNESS), (60, 6, 1))
    model = model_from_mesh_data(mesh)
    auto = StructuralAnalysis().solve(model, _plate_config(mesh, "auto"), SILENT)
    direct = StructuralAnalysis().solve(model, _plate_config(mesh, "direct"), SILENT)
    info = auto.solver_info
    tip, reference = (s.quantities["max_displacement_m"] for s in (auto, direct))
    beam = FORCE * LENGTH**3 / (3 * E * WIDTH * THICKNESS**3 / 12)  # Euler–Bernoulli, ν ignored
    print(
        f"thin plate, {info['matrix_size']} DOFs: {info['linear_solver']}; {info.get('fallback')}; tip {tip:.6g} m, "
        f"direct {reference:.6g} m (beam theory {beam:.4g} m)"
    )
    assert info["linear_solver"] == "direct (sparse Cholesky) after preconditioned CG stalled"
    assert info["fallback"].startswith(f"CG stalled after {info['iterations']} iterations")
    assert info["iterations"] <= 2 * linear_solve.STALL_CHECK_FROM
    # The plate is badly conditioned (bending over 2 mm against 1 m): two factorisations agree to ~1e-5.
    assert tip == pytest.approx(reference, rel=1e-4)
    balance = [s.quantities["reaction_balance_error"] for s in (auto, direct)]
    print(f"reaction balance: fallback {balance[0]:.2e}, direct {balance[1]:.2e}")
    # As good as the direct solve's (~3e-5 here: the same conditioning limits both).
    assert balance[0] < 2 * balance[1] + 1e-9


def test_cg_keeps_going_on_a_solid_part(monkeypatch):
    monkeypatch.setattr(static, "TWO_LEVEL_DIRECT_MAX_DOFS", 1_000)
    monkeypatch.setattr(linear_solve, "TWO_LEVEL_DIRECT_MAX_DOFS", 1_000)
    mesh = box_mesh((LENGTH, 0.1, 0.1), (12, 2, 2))
    info = (
        StructuralAnalysis()
        .solve(model_from_mesh_data(mesh), _plate_config(mesh, "auto"), SILENT)
        .solver_info
    )
    print(
        f"solid bar, {info['matrix_size']} DOFs: {info['linear_solver']} in {info['iterations']} iterations"
    )
    assert info["linear_solver"] == "preconditioned CG" and "fallback" not in info


def test_the_iteration_forecast_follows_the_residual_rate():
    window = linear_solve.STALL_WINDOW
    residuals = [0.9**k for k in range(window + 10)]
    rate, predicted = linear_solve.predicted_iterations(residuals, 1e-6)
    assert rate == pytest.approx(0.9)
    assert predicted == pytest.approx(math.log(1e-6) / math.log(0.9))
    flat = [1.0] * (window + 1)
    assert linear_solve.predicted_iterations(flat, 1e-6)[1] == math.inf
