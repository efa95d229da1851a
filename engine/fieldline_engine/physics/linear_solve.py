"""Choosing and running the linear solver: sparse direct for small systems, preconditioned CG for large."""

from dataclasses import dataclass

import ngsolve as ng

# Above this many free DOFs a direct factorization costs more memory and time than CG with AMG/BDDC.
DIRECT_SOLVER_MAX_DOFS = 250_000


@dataclass
class SolveReport:
    method: str
    iterations: int | None = None
    residual: float | None = None


def solve_spd(
    a: ng.BilinearForm,
    rhs: ng.BaseVector,
    gf: ng.GridFunction,
    freedofs: ng.BitArray,
    tolerance: float,
    max_iterations: int,
    preconditioner: ng.Preconditioner | None = None,
) -> SolveReport:
    """Solves a x = rhs on the free DOFs, keeping gf's Dirichlet values. `a` must be SPD on freedofs."""
    nfree = freedofs.NumSet()
    if preconditioner is None or nfree <= DIRECT_SOLVER_MAX_DOFS:
        inv = a.mat.Inverse(freedofs, inverse="sparsecholesky")
        gf.vec.data += inv * rhs
        return SolveReport("direct (sparse Cholesky)")
    solver = ng.solvers.CGSolver(a.mat, preconditioner.mat, tol=tolerance, maxiter=max_iterations)
    correction = gf.vec.CreateVector()
    correction[:] = 0.0
    correction.data = solver * rhs
    gf.vec.data += correction
    return SolveReport("CG + preconditioner", iterations=solver.iterations, residual=None)
