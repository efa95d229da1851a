"""The two-level preconditioners of order ≥ 2 elasticity: with the vertex problem factored (small models: block
Jacobi on vertex patches of the node-blocked K, core/elasticity/node_blocked.py) or solved by AMG (large ones:
Jacobi on VectorH1's K, core/elasticity/vertex_coarse.py, whose embedding puts a first-order field at the vertex
DOFs of the quadratic space). CG with either reproduces the direct solve."""

import subprocess
import sys
from pathlib import Path

import ngsolve as ng
import numpy as np
import pytest

from fieldline_engine.core.elasticity.vertex_coarse import vertex_embedding
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.structural import static
from fieldline_engine.structural.analysis import StructuralAnalysis
from fieldline_engine.testing import nafems_le10 as le10


def test_the_embedding_places_a_linear_field_exactly():
    mesh = ng.Mesh(ng.unit_cube.GenerateMesh(maxh=0.4))
    field = ng.CF((ng.x + 2 * ng.y, 3 * ng.z - ng.x, ng.y))
    p1, p2 = ng.GridFunction(ng.VectorH1(mesh, order=1)), ng.GridFunction(ng.VectorH1(mesh, order=2))
    p1.Set(field)
    p2.Set(field)  # a linear field: the edge (quadratic) DOFs are zero
    embedded = p2.vec.CreateVector()
    embedded.data = vertex_embedding(p2.space.ndof, mesh.nv) * p1.vec
    error = np.max(np.abs(embedded.FV().NumPy() - p2.vec.FV().NumPy()))
    print(f"embedding of a linear field: max error {error:.2e}")
    assert error < 1e-12
    back = p1.vec.CreateVector()
    back.data = vertex_embedding(p2.space.ndof, mesh.nv).T * p2.vec
    assert np.allclose(back.FV().NumPy(), p1.vec.FV().NumPy())


@pytest.mark.parametrize(
    ("cholesky_max", "coarse_solver", "max_iterations"),
    [
        (10**9, "block Jacobi on vertex patches + vertex (P1) coarse space by sparse Cholesky", 60),
        (0, "pyamg", 130),
    ],
)
def test_cg_with_the_two_level_preconditioner_matches_the_direct_solve(
    monkeypatch, cholesky_max, coarse_solver, max_iterations
):
    monkeypatch.setattr(static, "VERTEX_CHOLESKY_MAX_DOFS", cholesky_max)
    data, groups, mid_line = le10.mesh_data(0.3)
    model = model_from_mesh_data(data)
    base = {**le10.config(groups, mid_line), "tolerance": 1e-8}
    direct = StructuralAnalysis().solve(model, {**base, "linearSolver": "direct"}, SILENT)
    cg = StructuralAnalysis().solve(model, {**base, "linearSolver": "cg-amg"}, SILENT)
    info = cg.solver_info
    assert "vertex (P1) coarse space" in info["preconditioner"]
    assert coarse_solver in info["preconditioner"]
    d = le10.d_vertex(model.vertices)
    a, b = (float(s.field("stress").values[d, 1]) for s in (direct, cg))
    print(
        f"LE10 maxh 0.3: σyy(D) direct {a:.6e}, CG ({coarse_solver}) {b:.6e} in {info['iterations']} iterations"
    )
    assert abs(b / a - 1) < 1e-6
    # Point Jacobi (AMG coarse): 101 at this tolerance (57 at 1e-6 on the 1 M-DOF mesh); vertex patches: 35. The
    # count must not grow with the mesh.
    assert info["converged"] and info["iterations"] < max_iterations
    assert cg.quantities["reaction_balance_error"] < 1e-6


def test_a_small_two_level_solve_loads_neither_scipy_nor_pyamg():
    """Their imports are ≈ 0.5 CPU s, as much as the whole solve of a 40 k-unknown model: only runs whose vertex
    problem goes to AMG pay for them."""
    script = (
        "import sys\n"
        "from fieldline_engine.mesh.tet_model import model_from_mesh_data\n"
        "from fieldline_engine.protocol import SILENT\n"
        "from fieldline_engine.structural.analysis import StructuralAnalysis\n"
        "from fieldline_engine.testing.meshes import box_mesh, faces_on_plane\n"
        "mesh = box_mesh((1.0, 0.2, 0.2), (10, 2, 2))\n"
        "config = {'analysisType': 'structural', 'meshOrder': 2, 'linearSolver': 'cg-amg',\n"
        "          'fixedSupports': [{'faces': faces_on_plane(mesh, 0, 0.0)}],\n"
        "          'forceLoads': [{'faces': faces_on_plane(mesh, 0, 1.0), 'force': [0, 0, -1.0]}]}\n"
        "info = StructuralAnalysis().solve(model_from_mesh_data(mesh), config, SILENT).solver_info\n"
        "print(info['preconditioner'])\n"
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith(('scipy', 'pyamg'))}))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).parents[2],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[:2] == [
        "block Jacobi on vertex patches + vertex (P1) coarse space by sparse Cholesky",
        "[]",
    ]
