"""The lean classical AMG (core/ruge_stuben.py) that preconditions large real P1 scalar systems: the same
hierarchy and the same V-cycle as pyamg's `ruge_stuben_solver` with direct interpolation (which it replaces
for speed, bench/em-static), on a P1 stiffness of distorted tetrahedra with a jump in κ."""

import ngsolve as ng
import numpy as np
import pyamg
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from fieldline_engine.core import amg
from fieldline_engine.core.p1_stiffness import p1_stiffness
from fieldline_engine.core.ruge_stuben import RugeStubenCycle

MAX_COARSE = 30


KUHN = np.array([[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]])


@pytest.fixture(scope="module")
def stiffness_with_a_jump() -> sp.csr_matrix:
    """∫ κ ∇u·∇v (the engine's closed-form P1 stiffness) on a unit cube of 14³ Kuhn-split cubes whose inner
    vertices are moved at random by up to 0.15 h (so no two couplings are alike), κ 1 outside a ball and 40
    inside, the boundary fixed."""
    n = 14
    rng = np.random.default_rng(0)
    axis = np.arange(n + 1)
    grid = np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), axis=-1).reshape(-1, 3).astype(float)
    inner = np.all((grid > 0) & (grid < n), axis=1)
    grid[inner] += rng.uniform(-0.15, 0.15, (int(inner.sum()), 3))
    cubes = np.stack(np.meshgrid(*(np.arange(n),) * 3, indexing="ij"), axis=-1).reshape(-1, 3)
    corner = np.stack(
        [(cubes + [(b >> 2) & 1, (b >> 1) & 1, b & 1]) @ [(n + 1) ** 2, n + 1, 1] for b in range(8)], axis=1
    )
    tets = corner[:, KUHN].reshape(-1, 4)
    centres = grid[tets].mean(axis=1) / n
    kappa = np.where(np.linalg.norm(centres - [0.55, 0.5, 0.5], axis=1) < 0.3, 40.0, 1.0)
    matrix = p1_stiffness(grid / n, tets, kappa)
    free = np.flatnonzero(inner)
    return amg.without_round_off(matrix[free][:, free].tocsr())


def pyamg_reference(matrix):
    return pyamg.ruge_stuben_solver(
        matrix, interpolation="direct", max_coarse=MAX_COARSE, **amg.SCALAR_SMOOTHERS
    )


def test_hierarchy_and_cycle_are_pyamgs(stiffness_with_a_jump):
    matrix = stiffness_with_a_jump
    ours = RugeStubenCycle(matrix, max_coarse=MAX_COARSE)
    reference = pyamg_reference(matrix)
    sizes = [a.shape[0] for a in ours.operators]
    assert sizes == [level.A.shape[0] for level in reference.levels] and len(sizes) >= 3
    operator_error = max(
        abs(level.A - a).max() / abs(level.A).max()
        for level, a in zip(reference.levels, ours.operators, strict=True)
    )
    b = np.random.default_rng(1).standard_normal(matrix.shape[0])
    expected = reference.aspreconditioner(cycle="V").matvec(b)
    cycle_error = np.max(np.abs(ours.apply(b) - expected)) / np.max(np.abs(expected))
    print(
        f"[solver] lean Ruge–Stüben vs pyamg, {matrix.shape[0]} unknowns, levels {sizes}: "
        f"operators {operator_error:.1e}, one V-cycle {cycle_error:.1e}"
    )
    assert operator_error < 1e-13 and cycle_error < 1e-12


def test_cycle_is_a_symmetric_preconditioner_that_converges(stiffness_with_a_jump):
    """CG needs a symmetric preconditioner: (M r, s) = (r, M s); and the iterations match pyamg's."""
    matrix = stiffness_with_a_jump
    cycle = RugeStubenCycle(matrix, max_coarse=MAX_COARSE)
    r, s = np.random.default_rng(2).standard_normal((2, matrix.shape[0]))
    asymmetry = abs(cycle.apply(r) @ s - r @ cycle.apply(s)) / abs(r @ cycle.apply(r))
    exact = np.random.default_rng(3).standard_normal(matrix.shape[0])
    rhs = matrix @ exact
    counts = []
    for precondition in (cycle.apply, pyamg_reference(matrix).aspreconditioner(cycle="V").matvec):
        residuals: list[float] = []
        operator = spla.LinearOperator(matrix.shape, matvec=precondition)
        x = pyamg.krylov.cg(matrix, rhs, tol=1e-10, maxiter=100, M=operator, residuals=residuals)[0]
        counts.append(len(residuals) - 1)
    error = np.max(np.abs(x - exact)) / np.max(np.abs(exact))
    print(
        f"[solver] lean Ruge–Stüben in CG: asymmetry {asymmetry:.1e}, iterations {counts[0]} (pyamg {counts[1]})"
    )
    assert asymmetry < 1e-12 and counts[0] == counts[1] < 30 and error < 1e-7


def cg_iterations(matrix, precondition, rhs) -> tuple[int, np.ndarray]:
    residuals: list[float] = []
    operator = spla.LinearOperator(matrix.shape, matvec=precondition)
    x = pyamg.krylov.cg(matrix, rhs, tol=1e-10, maxiter=100, M=operator, residuals=residuals)[0]
    return len(residuals) - 1, x


def test_single_precision_cycle_converges_like_double_in_any_units(stiffness_with_a_jump):
    """The float32 hierarchy (what the engine runs) on the matrix in units 1e-30, 1 and 1e30 (ε₀ is 8.9e-12,
    a metal's σ 6e7): CG in double precision takes the iterations of the double-precision cycle and reaches
    the same solution; one cycle agrees with the double one to float32's precision in every unit."""
    exact = np.random.default_rng(3).standard_normal(stiffness_with_a_jump.shape[0])
    double = RugeStubenCycle(stiffness_with_a_jump, max_coarse=MAX_COARSE)
    reference_count, _ = cg_iterations(stiffness_with_a_jump, double.apply, stiffness_with_a_jump @ exact)
    b = np.random.default_rng(4).standard_normal(stiffness_with_a_jump.shape[0])
    for unit in (1e-30, 1.0, 1e30):
        matrix = stiffness_with_a_jump * unit
        single = RugeStubenCycle(matrix, max_coarse=MAX_COARSE, single=True)
        assert single.operators[0].dtype == np.float32
        count, x = cg_iterations(matrix, single.apply, matrix @ exact)
        error = np.max(np.abs(x - exact)) / np.max(np.abs(exact))
        expected = double.apply(b) / unit
        difference = np.max(np.abs(single.apply(b * 1e-20) * 1e20 - expected)) / np.max(np.abs(expected))
        print(
            f"[solver] single-precision Ruge–Stüben, unit {unit:g}: {count} CG iterations (double: "
            f"{reference_count}), solution error {error:.1e}, one cycle vs double {difference:.1e}"
        )
        assert count <= reference_count + 1 and error < 1e-7 and difference < 1e-5
        assert not np.any(single.apply(np.zeros_like(b)))


def test_a_contrast_beyond_single_precision_stays_double():
    """Diagonal entries 1e-40 of the largest are below float32's normal range: that hierarchy stays in double."""
    laplacian = pyamg.gallery.poisson((12, 12), format="csr")
    matrix = sp.block_diag([laplacian, laplacian * 1e-40], format="csr")
    cycle = RugeStubenCycle(matrix, max_coarse=MAX_COARSE, single=True)
    assert cycle.operators[0].dtype == np.float64 and cycle.scale == 1.0
    b = np.ones(matrix.shape[0])
    expected = RugeStubenCycle(matrix, max_coarse=MAX_COARSE).apply(b)
    assert np.allclose(cycle.apply(b), expected, rtol=1e-12, atol=0)


def test_isolated_unknowns_and_a_matrix_below_the_coarse_size():
    """A row without couplings (a lone node) stays a point of its own; a small matrix is one dense level."""
    laplacian = pyamg.gallery.poisson((12, 12), format="csr")
    matrix = sp.block_diag([laplacian, sp.identity(3)], format="csr")
    ours = RugeStubenCycle(matrix, max_coarse=MAX_COARSE)
    b = np.arange(matrix.shape[0], dtype=float)
    expected = pyamg_reference(matrix).aspreconditioner(cycle="V").matvec(b)
    assert np.allclose(ours.apply(b), expected, rtol=1e-12, atol=1e-12 * np.max(np.abs(expected)))
    small = RugeStubenCycle(laplacian, max_coarse=200)
    assert len(small.operators) == 1
    assert np.allclose(laplacian @ small.apply(b[:144]), b[:144])


def test_a_transient_heat_matrix_through_the_engine_solver():
    """K + M/Δt (consistent mass, Δt small enough that positive mass couplings outweigh the stiffness's) through
    the engine's LinearSolver with `cg-amg` at order 1, as a thermal time step runs it: the single-precision
    classical AMG, against the sparse factorisation of the same system."""
    from netgen.csg import unit_cube

    from fieldline_engine.core.linear_solve import LinearSolver

    mesh = ng.Mesh(unit_cube.GenerateMesh(maxh=0.1))
    fes = ng.H1(mesh, order=1, dirichlet="left")
    u, v = fes.TnT()
    a = ng.BilinearForm(fes, symmetric=True)
    a += (ng.grad(u) * ng.grad(v) + 2e3 * u * v) * ng.dx
    solver = LinearSolver(a, fes, "cg-amg", 1e-10, 200, kind="h1")
    a.Assemble()
    solver.prepare(fes.FreeDofs())
    f = ng.LinearForm(fes)
    f += (1 + ng.x * ng.y) * v * ng.dx
    f.Assemble()
    gf = ng.GridFunction(fes)
    solver.solve(f.vec, gf)
    reference = ng.GridFunction(fes)
    reference.vec.data = a.mat.Inverse(fes.FreeDofs(), inverse="sparsecholesky") * f.vec
    values = reference.vec.FV().NumPy()
    error = np.max(np.abs(gf.vec.FV().NumPy() - values)) / np.max(np.abs(values))
    info = solver.report.as_info()
    print(
        f"[solver] K + M/Δt, {fes.ndof} DOFs, single-precision classical AMG: {info['iterations']} CG iterations, error {error:.1e}"
    )
    assert info["preconditioner"] == "classical AMG (pyamg)" and info["converged"]
    assert info["iterations"] < 30 and error < 1e-8
