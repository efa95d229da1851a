"""The preconditioners of `linearSolver: cg-amg` for real H1 scalar problems (core/amg.py for order 1,
core/h1_two_level.py for order ≥ 2), on the problem bench/em-static measures: ∇·(ε∇φ) = 0 on the unit cube
with φ = x² − y² on the boundary, on a Kuhn-split brick (6 tetrahedra per cube). The exact potential is in
the P2 space, and P1 on this mesh is the 7-point stencil, exact for quadratics at the vertices: the vertex
error is the solver's alone."""

import ngsolve as ng
import numpy as np
import scipy.sparse as sp
from netgen.meshing import FaceDescriptor
from netgen.meshing import Mesh as NgMesh

from fieldline_engine.core.amg import without_round_off
from fieldline_engine.core.h1_two_level import VertexTwoLevel
from fieldline_engine.core.linear_solve import LinearSolver

_KUHN = np.array([[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]])
_LOCAL_FACES = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]]


def kuhn_cube(n: int) -> ng.Mesh:
    xs = np.linspace(0.0, 1.0, n + 1)
    vertices = np.stack([a.ravel() for a in np.meshgrid(xs, xs, xs, indexing="ij")], axis=1)
    i, j, k = (a.ravel() for a in np.meshgrid(*(np.arange(n),) * 3, indexing="ij"))
    corners = np.stack(
        [((i + (b & 1)) * (n + 1) + j + ((b >> 1) & 1)) * (n + 1) + k + ((b >> 2) & 1) for b in range(8)],
        axis=1,
    )
    tets = corners[:, _KUHN].reshape(-1, 4)
    tris = tets[:, _LOCAL_FACES].reshape(-1, 3)
    on_boundary = np.zeros(len(tris), dtype=bool)
    for axis in range(3):
        for value in (0.0, 1.0):
            on_boundary |= np.all(vertices[tris][:, :, axis] == value, axis=1)
    m = NgMesh(dim=3)
    m.AddPoints(vertices)
    m.SetMaterial(1, "body0")
    m.AddElements(dim=3, index=1, data=tets.astype(np.int32), base=0)
    m.Add(FaceDescriptor(surfnr=1, domin=1, domout=0, bc=1))
    m.SetBCName(0, "boundary")
    m.AddElements(dim=2, index=1, data=tris[on_boundary].astype(np.int32), base=0)
    return ng.Mesh(m)


def solve(mesh: ng.Mesh, order: int) -> tuple[float, int, str]:
    """(max vertex error, CG iterations, preconditioner) of the engine's cg-amg path to 1e-8."""
    fes = ng.H1(mesh, order=order, dirichlet="boundary")
    u, v = fes.TnT()
    a = ng.BilinearForm(ng.InnerProduct(8.854e-12 * ng.grad(u), ng.grad(v)) * ng.dx, symmetric=True)
    solver = LinearSolver(a, fes, "cg-amg", 1e-8, 200)
    a.Assemble()
    solver.prepare(fes.FreeDofs())
    exact = ng.x**2 - ng.y**2
    g = ng.GridFunction(fes)
    g.Set(exact, ng.BND)
    fixed = ~np.array(fes.FreeDofs(), dtype=bool)
    points = np.array(mesh.ngmesh.Coordinates())
    nodal = points[:, 0] ** 2 - points[:, 1] ** 2
    g.vec.FV().NumPy()[: mesh.nv][fixed[: mesh.nv]] = nodal[fixed[: mesh.nv]]  # nodal values at vertices
    rhs = g.vec.CreateVector()
    rhs.data = -a.mat * g.vec
    solver.solve(rhs, g)
    error = float(np.max(np.abs(g.vec.FV().NumPy()[: mesh.nv] - nodal)))
    return error, max(solver.report.iterations), solver.report.preconditioner


def test_second_order_two_level_iterations_do_not_grow_with_the_mesh():
    runs = {n: solve(kuhn_cube(n), 2) for n in (4, 8, 16)}
    for n, (error, iterations, name) in runs.items():
        print(
            f"[solver] P2 Kuhn cube n={n}: {iterations} CG iterations, max vertex error {error:.1e} ({name})"
        )
        assert "vertex AMG" in name
        assert error < 1e-7
    iterations = [runs[n][1] for n in (4, 8, 16)]
    # Gauss–Seidel without the vertex AMG: 16, 19, 23 iterations on these meshes, growing as h falls.
    assert max(iterations) <= 20 and iterations[-1] - iterations[0] <= 3, iterations


def test_first_order_amg_converges_in_few_iterations_on_a_kuhn_mesh():
    error, iterations, name = solve(kuhn_cube(16), 1)
    print(f"[solver] P1 Kuhn cube n=16: {iterations} CG iterations, max vertex error {error:.1e} ({name})")
    assert "pyamg" in name and error < 1e-7
    assert iterations <= 12  # 13–14 with the round-off couplings kept in the aggregation


def test_round_off_couplings_are_dropped_and_real_ones_kept():
    block = sp.csr_matrix(np.array([[2.0, -1.0, 1e-17], [-1.0, 2.0, -1.0], [1e-17, -1.0, 2.0]]))
    kept = without_round_off(block.copy()).toarray()
    assert kept[0, 2] == 0.0 and kept[2, 0] == 0.0
    assert kept[0, 1] == -1.0 and kept[1, 2] == -1.0 and np.all(np.diag(kept) == 2.0)


def test_with_every_vertex_fixed_gauss_seidel_alone_still_solves():
    mesh = kuhn_cube(1)  # all 8 vertices on the boundary: only edge DOFs inside the P3 space are free
    fes = ng.H1(mesh, order=3, dirichlet="boundary")
    u, v = fes.TnT()
    a = ng.BilinearForm(ng.grad(u) * ng.grad(v) * ng.dx, symmetric=True)
    a.Assemble()
    pre = VertexTwoLevel(a.mat, fes.FreeDofs(), mesh.nv)
    assert pre.coarse is None and fes.FreeDofs().NumSet() > 0
    b = a.mat.CreateColVector()
    b.FV().NumPy()[:] = np.array(fes.FreeDofs(), dtype=float)
    x = b.CreateVector()
    x.data = ng.solvers.CGSolver(a.mat, pre, tol=1e-12, maxiter=100) * b
    r = b.CreateVector()
    r.data = b - a.mat * x
    free = np.array(fes.FreeDofs(), dtype=bool)
    assert np.max(np.abs(r.FV().NumPy()[free])) < 1e-9
