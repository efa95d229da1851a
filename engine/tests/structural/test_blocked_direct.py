"""Direct elasticity solves up to BLOCKED_DIRECT_MAX_DOFS factor K in 3 × 3 node blocks (structural/static.py):
the same answer as VectorH1's scalar factor on a solid part, and on a thin plate, where NGSolve's block Cholesky
breaks down, the residual check sends the solve back to the scalar factor, which says so."""

import numpy as np
import pytest

from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.structural import static
from fieldline_engine.structural.analysis import StructuralAnalysis
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

E = 200e9


def _solve(monkeypatch, mesh: dict, config: dict, blocked: bool):
    monkeypatch.setattr(static, "BLOCKED_DIRECT_MAX_DOFS", 30_000 if blocked else 0)
    return StructuralAnalysis().solve(model_from_mesh_data(mesh), config, SILENT)


def test_a_solid_part_gets_the_scalar_factors_answer(monkeypatch):
    # Symmetry planes (one component each), a prescribed stretch, a side force and a uniform temperature: every
    # kind of constraint and load the blocked system carries.
    length = 0.5
    mesh = box_mesh((length, 0.1, 0.08), (8, 2, 2))
    config = {
        "analysisType": "structural",
        "youngsModulus": E,
        "poissonRatio": 0.3,
        "thermalExpansion": 1.2e-5,
        "meshOrder": 2,
        "linearSolver": "auto",
        "temperatureLoad": {"uniform": 343.15},
        "displacementConditions": [
            {"faces": faces_on_plane(mesh, 0, 0.0), "displacement": [0, None, None]},
            {"faces": faces_on_plane(mesh, 1, 0.0), "displacement": [None, 0, None]},
            {"faces": faces_on_plane(mesh, 2, 0.0), "displacement": [None, None, 0]},
            {"faces": faces_on_plane(mesh, 0, length), "displacement": [2e-4, None, None]},
        ],
        "forceLoads": [{"faces": faces_on_plane(mesh, 1, 0.1), "force": [0, 5e4, 0]}],
    }
    blocked, scalar = (_solve(monkeypatch, mesh, config, b) for b in (True, False))
    assert blocked.solver_info["linear_solver"] == "direct (sparse Cholesky, 3 × 3 node blocks)"
    assert scalar.solver_info["linear_solver"] == "direct (sparse Cholesky)"
    assert "fallback" not in blocked.solver_info
    u, v = (s.field("displacement").values for s in (blocked, scalar))
    s, t = (s.field("stress").values for s in (blocked, scalar))
    du = np.max(np.abs(u - v)) / np.max(np.abs(v))
    ds = np.max(np.abs(s - t)) / np.max(np.abs(t))
    reactions = [
        np.concatenate([r["reaction_N"] for r in x.quantities["reactions"]]) for x in (blocked, scalar)
    ]
    dr = np.max(np.abs(reactions[0] - reactions[1])) / np.max(np.abs(reactions[1]))
    energy = blocked.quantities["strain_energy_J"] / scalar.quantities["strain_energy_J"] - 1
    print(
        f"solid bar, {blocked.solver_info['matrix_size']} DOFs, block vs scalar factor: displacement {du:.1e}, "
        f"stress {ds:.1e}, reactions {dr:.1e}, strain energy {energy:.1e} (relative)"
    )
    assert du < 1e-9 and ds < 1e-9 and dr < 1e-9 and abs(energy) < 1e-9
    assert blocked.quantities["reaction_balance_error"] < 1e-8


def test_a_thin_plate_falls_back_to_the_scalar_factor(monkeypatch):
    # 1 mm under 25 mm elements: the block factor's solution has a tip displacement of ~1e77 m.
    length, width, thickness, force = 1.0, 0.1, 0.001, 1000.0
    mesh = box_mesh((length, width, thickness), (40, 4, 1))
    config = {
        "analysisType": "structural",
        "youngsModulus": E,
        "poissonRatio": 0.3,
        "meshOrder": 2,
        "linearSolver": "direct",
        "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
        "forceLoads": [{"faces": faces_on_plane(mesh, 0, length), "force": [0, 0, -force]}],
    }
    checked, scalar = (_solve(monkeypatch, mesh, config, b) for b in (True, False))
    info = checked.solver_info
    tip, reference = (s.quantities["max_displacement_m"] for s in (checked, scalar))
    beam = force * length**3 / (3 * E * width * thickness**3 / 12)  # Euler–Bernoulli, ν ignored
    print(
        f"thin plate, {info['matrix_size']} DOFs: {info['linear_solver']}; {info.get('fallback')}; tip {tip:.6g} m, "
        f"scalar factor alone {reference:.6g} m (beam theory {beam:.4g} m)"
    )
    assert info["linear_solver"] == "direct (sparse Cholesky)"
    assert info["fallback"].startswith("the 3 × 3 node-block factor was inaccurate")
    assert tip == reference  # the same factorisation of the same system
    assert tip == pytest.approx(beam, rel=0.05)
