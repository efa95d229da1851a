"""The modal solve's two paths: shift-and-invert Lanczos on a sparse factor, and LOBPCG with the two-level
preconditioner (the large-model path: `linearSolver` auto above DIRECT_MAX_DOFS or when the factor would not fit
the memory limit) must give the same modes; a LOBPCG solve that stops early says
how many modes converged and their residuals."""

import numpy as np
import pytest

from fieldline_engine.errors import EngineError
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.vibration import modal
from fieldline_engine.vibration.analysis import ModalAnalysis

MESH = box_mesh((0.2, 0.04, 0.04), (10, 2, 2))
CLAMP = faces_on_plane(MESH, 0, 0.0)
BASE = {
    "analysisType": "modal",
    "meshOrder": 2,
    "youngsModulus": 200e9,
    "poissonRatio": 0.3,
    "density": 7850.0,
}


def solve(**config):
    return ModalAnalysis().solve(model_from_mesh_data(MESH), {**BASE, **config}, SILENT)


@pytest.mark.parametrize("supports", [[{"faces": CLAMP}], []], ids=["clamped", "free-free"])
def test_lobpcg_finds_the_modes_of_the_direct_solve(supports):
    direct = solve(modalNumModes=4, fixedSupports=supports, linearSolver="direct")
    iterative = solve(modalNumModes=4, fixedSupports=supports, linearSolver="cg-bddc")
    a = np.array([m["frequency"] for m in direct.extras["modes"]])
    b = np.array([m["frequency"] for m in iterative.extras["modes"]])
    assert [m["rigid_body"] for m in iterative.extras["modes"]] == [
        m["rigid_body"] for m in direct.extras["modes"]
    ]
    elastic = ~np.array([m["rigid_body"] for m in direct.extras["modes"]])
    difference = float(np.max(np.abs(b[elastic] / a[elastic] - 1)))
    info = iterative.solver_info
    print(
        f"LOBPCG vs Lanczos ({'clamped' if supports else 'free-free'}): frequencies differ by {difference:.1e}; "
        f"{info['eigen_iterations']} LOBPCG iterations, largest residual {info['max_residual']:.1e}"
    )
    assert difference < 1e-8  # the issue asks for 1e-6
    assert info["eigen_solver"].startswith("LOBPCG") and info["eigen_iterations"] > 0
    assert len(info["eigen_residuals"]) == len(b) and info["max_residual"] < 1e-5
    assert direct.solver_info["eigen_solver"].startswith("shift-and-invert Lanczos")


def test_lobpcg_on_the_vector_space_matches_the_blocked_one(monkeypatch):
    """Supports that fix only some components keep VectorH1's matrices, whose vertex DOFs sit in three blocks:
    the two-level preconditioner's coarse space must find them there too."""
    blocked = solve(modalNumModes=4, fixedSupports=[{"faces": CLAMP}], linearSolver="cg-bddc")
    monkeypatch.setattr(modal.node_blocks, "all_components", lambda fixed: False)
    vector = solve(modalNumModes=4, fixedSupports=[{"faces": CLAMP}], linearSolver="cg-bddc")
    assert "node blocks" in blocked.solver_info["eigen_solver"]
    assert "node blocks" not in vector.solver_info["eigen_solver"]
    a = np.array([m["frequency"] for m in blocked.extras["modes"]])
    b = np.array([m["frequency"] for m in vector.extras["modes"]])
    difference = float(np.max(np.abs(b / a - 1)))
    print(
        f"LOBPCG, VectorH1 vs node blocks: frequencies differ by {difference:.1e}; "
        f"{vector.solver_info['eigen_iterations']} vs {blocked.solver_info['eigen_iterations']} iterations"
    )
    assert difference < 1e-8
    assert vector.solver_info["eigen_iterations"] <= 2 * blocked.solver_info["eigen_iterations"]


def test_lobpcg_that_stops_early_reports_the_converged_modes_and_residuals(monkeypatch):
    monkeypatch.setattr(modal, "LOBPCG_MAX_ITERATIONS", 3)
    with pytest.raises(EngineError) as failure:
        solve(modalNumModes=4, fixedSupports=[{"faces": CLAMP}], linearSolver="cg-bddc")
    message = str(failure.value)
    print(message)
    assert "LOBPCG converged for" in message and "of 4 modes after 3 iterations" in message
    assert "Largest residual" in message


def test_the_solver_choice():
    assert modal.eigen_method("auto", 10_000, None) == "direct"
    assert modal.eigen_method("auto", modal.DIRECT_MAX_DOFS + 1, None) == "lobpcg"
    # bench/vibration's 1.05 M-DOF cantilever under the default 8 GB job limit: the factor (> 10 GB) would be
    # killed by RLIMIT_AS halfway, so auto goes to LOBPCG; 0.21 M factors; a 2 GB limit sends 0.21 M to LOBPCG too.
    assert modal.eigen_method("auto", 1_051_539, None, 8192) == "lobpcg"
    assert modal.eigen_method("auto", 209_433, None, 8192) == "direct"
    assert modal.eigen_method("auto", 209_433, None, 2048) == "lobpcg"
    assert modal.direct_memory_bytes(209_433) > 2048 * 2**20
    assert modal.eigen_method("cg-bddc", 1_000, 50.0) == "direct"  # a band needs the shift
    assert modal.eigen_method("cg-amg", 1_000, None) == "lobpcg"


@pytest.mark.parametrize("supports", [[{"faces": CLAMP}], []], ids=["clamped", "free-free"])
def test_node_blocked_matrices_give_the_modes_of_the_vector_space(supports, monkeypatch):
    """The direct path's 3 × 3 node-blocked K and M (vibration/node_blocks.py) against Elasticity's VectorH1
    matrices: same frequencies, effective masses and mode shapes (in VectorH1's layout)."""
    blocked = solve(modalNumModes=4, fixedSupports=supports, linearSolver="direct")
    monkeypatch.setattr(modal.node_blocks, "all_components", lambda fixed: False)
    vector = solve(modalNumModes=4, fixedSupports=supports, linearSolver="direct")
    assert "node blocks" in blocked.solver_info["eigen_solver"]
    assert "node blocks" not in vector.solver_info["eigen_solver"]
    a, b = blocked.extras["modes"], vector.extras["modes"]
    assert [m["rigid_body"] for m in a] == [m["rigid_body"] for m in b]
    elastic = [i for i, m in enumerate(a) if not m["rigid_body"]]
    freq = max(abs(a[i]["frequency"] / b[i]["frequency"] - 1) for i in elastic)
    mass = max(
        abs(x - y)
        for i in elastic
        for x, y in zip(a[i]["effective_mass"], b[i]["effective_mass"], strict=True)
    )
    total = vector.quantities["total_mass_kg"]
    # Frequencies to the Lanczos tolerance (a free part's elastic modes to ≈ 5e-9). A mode's sign is arbitrary; degenerate pairs (the square section's y and z bending) may mix differently.
    shape = max(
        min(
            np.abs(np.subtract(a[i]["shape"], b[i]["shape"])).max(),
            np.abs(np.add(a[i]["shape"], b[i]["shape"])).max(),
        )
        for i in elastic
        if all(abs(a[j]["frequency"] / a[i]["frequency"] - 1) > 1e-6 for j in elastic if j != i)
    )
    print(
        f"node blocks vs VectorH1: frequencies {freq:.1e}, effective mass {mass / total:.1e}, shapes {shape:.1e}"
    )
    assert freq < 1e-7 and mass < 1e-6 * total and shape < 1e-5
    assert blocked.solver_info["non_zeros"] == vector.solver_info["non_zeros"]


def test_a_thin_plate_whose_block_factor_breaks_down_is_factored_as_scalars():
    """NGSolve's 3 × 3 block Cholesky of K − σM breaks down on a 0.2 mm strip one element thick (12.5 : 1
    elements): it returned 0 Hz modes with residuals of 1e7. The direct path must test its factor and use the
    scalar matrices instead, giving the Euler–Bernoulli frequency (coarse mesh: within 2 %)."""
    length, width, thickness = 0.1, 0.01, 0.0002
    mesh = box_mesh((length, width, thickness), (40, 4, 1))
    sol = ModalAnalysis().solve(
        model_from_mesh_data(mesh),
        {**BASE, "modalNumModes": 1, "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}]},
        SILENT,
    )
    inertia, area = width * thickness**3 / 12, width * thickness
    euler_bernoulli = 1.87510407**2 / (2 * np.pi) * np.sqrt(200e9 * inertia / (7850.0 * area * length**4))
    frequency = sol.extras["modes"][0]["frequency"]
    print(
        f"0.2 mm strip: {frequency:.4f} Hz vs Euler–Bernoulli {euler_bernoulli:.4f} Hz ({frequency / euler_bernoulli - 1:+.2%})"
    )
    assert abs(frequency / euler_bernoulli - 1) < 0.02
    assert "inaccurate" in sol.solver_info["factor_fallback"]
    assert "node blocks" not in sol.solver_info["eigen_solver"]
    assert sol.solver_info["max_residual"] < 1e-3  # the broken factor gave 1e7
