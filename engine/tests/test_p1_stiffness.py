"""The closed-form P1 stiffness (core/p1_stiffness.py) that the static EM path assembles for order 1 with
`linearSolver: cg-amg`: the same matrix as NGSolve's element loop, and a layered capacitor through the real
electrostatic path, checked against its closed-form capacitance."""

import netgen.occ as occ
import ngsolve as ng
import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.core import h1_scalar
from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.p1_stiffness import CsrOperator, mesh_p1_stiffness
from fieldline_engine.em.constants import EPS0
from fieldline_engine.em.em_static_job import solve_fields
from fieldline_engine.testing.occ_models import curved_mesh, dirichlet, material


def two_layers(maxh: float) -> ng.Mesh:
    """Unit square plates 2 m apart, a dielectric layer z < 1 (body0) and z > 1 (body1), unstructured tets."""
    low = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(1, 1, 1))
    high = occ.Box(occ.Pnt(0, 0, 1), occ.Pnt(1, 1, 2))
    low.mat("body0")
    high.mat("body1")
    low.faces.Min(occ.Z).name = "dirichlet_0"
    high.faces.Max(occ.Z).name = "dirichlet_1"
    return curved_mesh(occ.Glue([low, high]), maxh=maxh, order=1)


def test_closed_form_matrix_is_ngsolves_to_round_off():
    mesh = two_layers(0.3)
    kappa = [2.0, 7.5]
    fes = ng.H1(mesh, order=1)
    u, v = fes.TnT()
    a = ng.BilinearForm(fes, symmetric=False)
    a += mesh.MaterialCF({"body0": kappa[0], "body1": kappa[1]}) * ng.grad(u) * ng.grad(v) * ng.dx
    a.Assemble()
    rows, cols, values = (np.asarray(part) for part in a.mat.COO())
    reference = np.zeros((fes.ndof, fes.ndof))
    np.add.at(reference, (rows, cols), values)
    closed = mesh_p1_stiffness(mesh, kappa).toarray()
    error = np.max(np.abs(closed - reference)) / np.max(np.abs(reference))
    print(
        f"[validation] closed-form P1 stiffness vs NGSolve's assembly ({mesh.ne} tets): max rel diff {error:.1e}"
    )
    assert error < 1e-13
    assert np.allclose(closed, closed.T, rtol=0, atol=1e-14 * np.max(np.abs(reference)))


def test_layered_capacitor_at_order_one_through_the_closed_form_path(monkeypatch):
    """ε_r 1 below z = 1, 4 above: C = ε₀ A / (d₁/ε₁ + d₂/ε₂) = 0.8 ε₀. The potential is piecewise linear in
    z, so P1 is exact and C is right to the solver's tolerance."""
    used = []

    def spy(mesh, kappa_by_body):
        matrix = mesh_p1_stiffness(mesh, kappa_by_body)
        used.append(matrix is not None)
        return matrix

    monkeypatch.setattr(h1_scalar, "mesh_p1_stiffness", spy)
    mesh = two_layers(0.15)
    materials = [material(1.0), material(4.0)]
    bnd = dirichlet((0.0, "ground"), (1.0, "plate"))
    options = SolverOptions("cg-amg", 1e-12, 200)
    sol = solve_fields(mesh, materials, bnd, 1, 0.0, options)
    assert used == [True]
    info = sol.reports[0][1].as_info()
    assert info["preconditioner"] == "classical AMG (pyamg)" and info["converged"]
    exact = 0.8 * EPS0
    c = sol.quantities["capacitance_F"]
    q = sol.quantities["terminal_charges_C"]["plate"]
    error = (c - exact) / exact
    print(
        f"[validation] layered capacitor, P1 closed-form path: C error {error:.1e}, charge {(q - exact) / exact:.1e}"
    )
    RECORDER.record(
        "em-layered-capacitor-p1", order=1, value=c, reference=exact, error=error, unknowns=sol.ndof
    )
    assert q == pytest.approx(exact, rel=1e-8)

    monkeypatch.undo()  # NGSolve's own assembly of the same problem, direct solver: the same answer
    reference = solve_fields(mesh, materials, bnd, 1, 0.0, SolverOptions("direct"))
    assert reference.quantities["capacitance_F"] == pytest.approx(c, rel=1e-9)


def test_operator_answers_like_an_ngsolve_matrix():
    mesh = two_layers(0.5)
    csr = mesh_p1_stiffness(mesh, [1.0, 1.0])
    op = CsrOperator(csr)
    x = ng.BaseVector(csr.shape[0])
    x.FV().NumPy()[:] = np.arange(csr.shape[0], dtype=float)
    y = x.CreateVector()
    y.data = op * x
    assert np.allclose(y.FV().NumPy(), csr @ np.arange(csr.shape[0], dtype=float))
    assert op.nze == csr.nnz and op.height == op.width == csr.shape[0]
