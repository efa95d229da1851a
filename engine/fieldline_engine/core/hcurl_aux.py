"""An auxiliary-space (Hiptmair–Xu) preconditioner for first-order Nédélec curl–curl systems, the AMS
method of hypre built on pyamg, for CG on real magnetostatic systems.

Lowest-order edge elements have no interior DOFs, so BDDC would be a direct solve, and NGSolve's
hcurlamg needed 46 iterations and 190 s at 57 k unknowns on the toroid bench (bench/magnetics), slower than
factoring. The near-kernel of curl–curl is the gradients, which a pointwise smoother cannot reduce; HX
corrects them in two nodal spaces where AMG works:
- the gradients: G (the discrete gradient, edge ← vertex, ±1) with GᵀAG, a Laplacian (the gauge mass);
- the vector fields: Π (first-order vector H1 interpolated onto the edges) with ΠᵀAΠ, a vector Laplacian.
One application: a forward Gauss–Seidel sweep, both nodal corrections (one smoothed-aggregation V-cycle
each) from the residual, a backward sweep; symmetric, so CG may use it.
"""

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits


class AuxiliarySpaceHCurl(ng.BaseMatrix):
    def __init__(self, mat: ng.BaseMatrix, fes: ng.FESpace, freedofs: ng.BitArray):
        import pyamg  # here, not at the top: pyamg and SciPy cost start-up time only where used
        import scipy.sparse as sp

        super().__init__()
        self.n = mat.height
        self.free = bits.indices(freedofs)
        self.a = _csr(mat, sp)[self.free][:, self.free].tocsr()
        gradient, _ = fes.CreateGradient()
        g = _csr(gradient, sp)
        points = np.asarray(fes.mesh.ngmesh.Coordinates())
        if g.shape[1] != len(points):
            raise ValueError("the discrete gradient's columns are not the mesh vertices")
        # Vertices on the fixed (n×A = 0) boundary: their gradients have a fixed tangential trace there.
        fixed = np.ones(self.n, dtype=bool)
        fixed[self.free] = False
        boundary = np.zeros(g.shape[1], dtype=bool)
        boundary[np.unique(g[fixed].indices)] = True
        g = g[self.free].tocsr()
        self.g = g[:, np.nonzero(~boundary)[0]].tocsr()
        self.pi = _interpolation(g, points, sp)
        # The restrictions as row-major matrices, built once (the Galerkin products and every application use
        # them; a transposed view is converted at each use).
        self.g_t = self.g.T.tocsr()
        self.pi_t = self.pi.T.tocsr()
        a_g = (self.g_t @ (self.a @ self.g)).tocsr()
        a_pi = sp.bsr_matrix((self.pi_t @ (self.a @ self.pi)).tocsr(), blocksize=(3, 3))
        nodal = np.kron(np.ones((a_pi.shape[0] // 3, 1)), np.eye(3))  # rigid translations per component
        # The candidates are the nodal spaces' exact near-kernels already (constants; translations), so pyamg's
        # default smoothing of them (improve_candidates: 4 Gauss–Seidel sweeps per level) is left out: the set-up
        # is ≈ 0.03 CPU s shorter on the 16 k-unknown toroid (bench/magnetics), iterations 20 → 21 there and 22
        # at 57 k, the same inductance to 1e-13.
        hierarchy_g = pyamg.smoothed_aggregation_solver(a_g, improve_candidates=None, **SMOOTHING)
        hierarchy_pi = pyamg.smoothed_aggregation_solver(a_pi, B=nodal, improve_candidates=None, **SMOOTHING)
        del a_g, a_pi  # the hierarchies hold their first levels; VCycle keeps one (CSR) copy of each level
        self.cycle_g = VCycle(hierarchy_g)
        self.cycle_pi = VCycle(hierarchy_pi)

    def apply(self, b: np.ndarray) -> np.ndarray:
        x = np.zeros_like(b)
        _gauss_seidel(self.a, x, b, forward=True)
        r = b - self.a @ x
        x += self.g @ self.cycle_g(self.g_t @ r) + self.pi @ self.cycle_pi(self.pi_t @ r)
        _gauss_seidel(self.a, x, b, forward=False)
        return x

    def Mult(self, x: ng.BaseVector, y: ng.BaseVector) -> None:  # noqa: N802 - NGSolve's interface
        out = y.FV().NumPy()
        out[:] = 0.0
        out[self.free] = self.apply(x.FV().NumPy()[self.free])

    def Height(self) -> int:  # noqa: N802
        return self.n

    def Width(self) -> int:  # noqa: N802
        return self.n


# Pointwise symmetric Gauss–Seidel before and after each coarse correction, also in the vector nodal space's
# 3×3-block hierarchy (pyamg's default there is block Gauss–Seidel, which inverts a 3×3 block per row): the same
# iterations (21 at 16 k unknowns, 22 at 57 k on the toroid, bench/magnetics), CG 30–45 % faster.
SMOOTHING = {
    "presmoother": ("gauss_seidel", {"sweep": "symmetric"}),
    "postsmoother": ("gauss_seidel", {"sweep": "symmetric"}),
}


class VCycle:
    """One V-cycle of a pyamg hierarchy built with SMOOTHING, from a zero guess: the operator of the hierarchy's
    `aspreconditioner()`, whose every application also formed the finest residual's norm before and after the
    cycle (two more products with the largest matrix) and checked its arguments in Python at every smoothing
    call. 16 k-unknown toroid (bench/magnetics): CG 15 % faster."""

    def __init__(self, hierarchy):
        self.levels = hierarchy.levels
        self.coarse_solver = hierarchy.coarse_solver
        # Pointwise sweeps run on CSR: the vector space's levels, stored by 3×3 blocks, are replaced by their
        # CSR form (one copy of each level's matrix, not two; the coarsest stays as its solver was set up on).
        for level in self.levels[:-1]:
            level.A = level.A.tocsr()
        self.matrices = [level.A for level in self.levels]

    def __call__(self, b: np.ndarray) -> np.ndarray:
        if len(self.levels) == 1:  # small enough for the coarse solver alone
            return self.coarse_solver(self.levels[0].A, b)
        return self._cycle(0, b)

    def _cycle(self, k: int, b: np.ndarray) -> np.ndarray:
        level, a = self.levels[k], self.matrices[k]
        x = np.zeros_like(b)
        _gauss_seidel(a, x, b, forward=True)
        _gauss_seidel(a, x, b, forward=False)
        coarse_b = level.R @ (b - a @ x)
        if k == len(self.levels) - 2:
            coarse_x = self.coarse_solver(self.levels[-1].A, coarse_b)
        else:
            coarse_x = self._cycle(k + 1, coarse_b)
        x += level.P @ coarse_x
        _gauss_seidel(a, x, b, forward=True)
        _gauss_seidel(a, x, b, forward=False)
        return x


def _gauss_seidel(a, x: np.ndarray, b: np.ndarray, forward: bool) -> None:
    """One pointwise Gauss–Seidel sweep of a CSR matrix in place (pyamg's kernel, as pyamg.relaxation calls it)."""
    from pyamg import amg_core

    rows = a.shape[0]
    start, stop, step = (0, rows, 1) if forward else (rows - 1, -1, -1)
    amg_core.gauss_seidel(a.indptr, a.indices, a.data, x, b, start, stop, step)


def _csr(mat: ng.BaseMatrix, sp):
    vals, cols, starts = (np.asarray(part) for part in mat.CSR())
    return sp.csr_matrix((vals, cols, starts), shape=(mat.height, mat.width))


def _interpolation(g, points: np.ndarray, sp):
    """Π: a vector field linear on each edge, given at the vertices (x, y, z interleaved per vertex), onto the
    edge DOFs (the line integral along the edge, as G's ±1 says): Π[e, 3v + d] = ½ (x_b − x_a)_d for both
    ends v of the edge e = (a, b)."""
    tangents = g @ points  # per edge: x_b − x_a
    rows = np.repeat(np.arange(g.shape[0]), np.diff(g.indptr))
    cols = g.indices
    r = np.repeat(rows, 3)
    c = (3 * np.repeat(cols, 3)) + np.tile(np.arange(3), len(cols))
    v = 0.5 * tangents[rows].ravel()
    return sp.csr_matrix((v, (r, c)), shape=(g.shape[0], 3 * g.shape[1]))
