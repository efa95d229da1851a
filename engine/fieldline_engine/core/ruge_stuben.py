"""Classical (Ruge–Stüben) AMG with direct interpolation, built and cycled straight on pyamg's C++ kernels.

The hierarchy is pyamg's `ruge_stuben_solver(A, interpolation="direct")` — classical strength θ = 0.25 ('abs'),
RS splitting, direct interpolation, Galerkin coarse operators R A P, a dense pseudo-inverse at the bottom
(NumPy's symmetric one, where pyamg's is SciPy's SVD) — and a cycle is its V-cycle with one forward
Gauss–Seidel sweep down and one backward sweep up. What is left out is the Python around the kernels, which
cost as much as the kernels at 1e6 unknowns (bench/em-static):
- set-up: pyamg scales the strength matrix by its row maxima and multiplies it back into A's values for the
  interpolation, and removes its diagonal through a COO copy; the C++ strength kernel already writes A's
  own values on the strong pattern, so here only the diagonal is masked out (one pass);
- cycle: pyamg's preconditioner runs `solve(maxiter=1)`, which computes ‖b‖ and the residual b − A x twice
  (before and after the cycle) — two products with the fine matrix per CG iteration that nothing reads.
"""

import numpy as np

THETA = 0.25  # pyamg's default strength threshold for classical AMG


class RugeStubenCycle:
    """The hierarchy of the SPD (M-matrix-like) CSR matrix `matrix`, coarsened until at most `max_coarse`
    unknowns remain; `apply(b)` is one V-cycle from a zero guess, a symmetric preconditioner for CG.

    `single`: the hierarchy is built and cycled in single precision, on the matrix scaled to a unit largest
    diagonal and on right-hand sides scaled to a unit largest entry (so no unit system leaves float32's
    range). It moves a third less memory per nonzero (4-byte values beside 4-byte indices): ~20 % less set-up
    and CG time at 1e6 unknowns (bench/em-static), the same iterations and the same final residual — CG itself
    and its matrix stay in double precision, and a preconditioner's rounding at 1e-7 does not limit it. A
    matrix whose diagonal would fall below float32's normal range (a contrast beyond 1e38) stays in double."""

    def __init__(self, matrix, max_coarse: int = 200, max_levels: int = 30, single: bool = False):
        self.scale = 1.0
        if single:
            diagonal = matrix.diagonal()
            scale = 1.0 / np.max(np.abs(diagonal), initial=0.0) if len(diagonal) else 1.0
            import scipy.sparse as sp

            values = np.empty(len(matrix.data), dtype=np.float32)
            np.multiply(matrix.data, scale, out=values, casting="same_kind")
            narrow = sp.csr_matrix((values, matrix.indices, matrix.indptr), shape=matrix.shape)
            if np.isfinite(scale) and np.min(np.abs(narrow.diagonal())) >= np.finfo(np.float32).tiny:
                matrix, self.scale = narrow, scale
        self.operators = [matrix]
        self.prolongations = []
        self.restrictions = []
        while len(self.operators) < max_levels and self.operators[-1].shape[0] > max_coarse:
            coarse = _coarsen(self.operators[-1])
            if coarse is None:  # every point C or every point F: no smaller problem
                break
            p, r, a_coarse = coarse
            self.prolongations.append(p)
            self.restrictions.append(r)
            self.operators.append(a_coarse)
        bottom = self.operators[-1]
        dense = bottom.toarray().astype(float)
        # Symmetric (a Galerkin product of a symmetric matrix, up to round-off): eigh's pseudo-inverse, half
        # the time of the SVD's (3.7 against 7 ms at 200 unknowns).
        self.coarse_inverse = np.linalg.pinv((dense + dense.T) / 2, hermitian=True).astype(bottom.dtype)

    def apply(self, b: np.ndarray) -> np.ndarray:
        dtype = self.operators[0].dtype
        if dtype == np.float64:
            return self._cycle(0, np.ascontiguousarray(b, dtype=float))
        size = max(float(np.max(b, initial=0.0)), -float(np.min(b, initial=0.0)))
        if size == 0.0:
            return np.zeros(len(b))
        narrow = np.empty(len(b), dtype=dtype)
        np.multiply(b, 1.0 / size, out=narrow, casting="same_kind")
        out = np.empty(len(b))
        np.multiply(self._cycle(0, narrow), size * self.scale, out=out)
        return out

    def _cycle(self, level: int, b: np.ndarray) -> np.ndarray:
        from pyamg import amg_core

        if level == len(self.operators) - 1:
            return self.coarse_inverse @ b
        a = self.operators[level]
        n = a.shape[0]
        x = np.zeros(n, dtype=a.dtype)
        amg_core.gauss_seidel(a.indptr, a.indices, a.data, x, b, 0, n, 1)
        residual = b - a @ x
        x += self.prolongations[level] @ self._cycle(level + 1, self.restrictions[level] @ residual)
        amg_core.gauss_seidel(a.indptr, a.indices, a.data, x, b, n - 1, -1, -1)
        return x


def _coarsen(a):
    """(P, R = Pᵀ, R A P) of one classical coarsening of the CSR matrix `a`, or None when the splitting makes
    every point coarse or every point fine."""
    import scipy.sparse as sp
    from pyamg import amg_core

    n = a.shape[0]
    strong = _strong_couplings(a)
    splitting = np.empty(n, dtype=strong.indptr.dtype)
    transpose = strong.T.tocsr()  # the points each point influences
    amg_core.rs_cf_splitting(
        n,
        strong.indptr,
        strong.indices,
        transpose.indptr,
        transpose.indices,
        np.zeros_like(splitting),
        splitting,
    )
    del transpose
    coarse = int(np.count_nonzero(splitting))
    if coarse in (0, n):
        return None
    starts = np.empty_like(a.indptr)
    amg_core.rs_direct_interpolation_pass1(n, strong.indptr, strong.indices, splitting, starts)
    columns = np.empty(starts[-1], dtype=starts.dtype)
    weights = np.empty(starts[-1], dtype=a.dtype)
    amg_core.rs_direct_interpolation_pass2(
        n,
        a.indptr,
        a.indices,
        a.data,
        strong.indptr,
        strong.indices,
        strong.data,
        splitting,
        starts,
        columns,
        weights,
    )
    p = sp.csr_matrix((weights, columns, starts), shape=(n, coarse))
    r = p.T.tocsr()
    a_coarse = (r @ a) @ p
    a_coarse.sort_indices()  # SciPy's product leaves rows unsorted; RS breaks ties in column order
    return p, r, a_coarse


def _strong_couplings(a):
    """The classical strength matrix of `a` without its diagonal, holding A's own values (what both the RS
    splitting and direct interpolation read): j is strong for i when |a_ij| ≥ θ max_k≠i |a_ik|."""
    import scipy.sparse as sp
    from pyamg import amg_core

    n = a.shape[0]
    starts = np.empty_like(a.indptr)
    columns = np.empty_like(a.indices)
    values = np.empty_like(a.data)
    amg_core.classical_strength_of_connection_abs(
        n, THETA, a.indptr, a.indices, a.data, starts, columns, values
    )
    strong = sp.csr_matrix((values[: starts[-1]], columns[: starts[-1]], starts), shape=(n, n))
    # The kernel keeps the diagonal (and the zeros of a row without couplings): zero it and compact in place,
    # ~6× faster than boolean indexing of three arrays.
    rows = np.repeat(np.arange(n, dtype=columns.dtype), np.diff(starts))
    strong.data[strong.indices == rows] = 0.0
    del rows
    strong.eliminate_zeros()
    return strong
