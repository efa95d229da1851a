"""The step matrix's sparse Cholesky factor on the free DOFs, solved into numpy arrays.

Every scheme spends most of a step in one forward/back substitution with a constant SPD matrix, so the
factor's solve speed is the stepping speed. CHOLMOD's supernodal factor (via cholespy) substitutes about
1.5–1.8× faster than NGSolve's `sparsecholesky` on the same matrix (bench/em-transient), and it takes a
block of right-hand sides at once: k columns cost far less than k substitutions, which the port-by-port
S-matrix uses. Both are exact direct solvers (they agree to rounding, ~1e-14); without cholespy the
engine falls back to NGSolve's factor, one column at a time.
"""

import ngsolve as ng
import numpy as np
import scipy.sparse as sp

try:  # an optional speed-up: the results do not depend on it
    import cholespy
except ImportError:  # pragma: no cover - exercised only where the wheel is missing
    cholespy = None


class StepFactor:
    """A⁻¹ on the free DOFs of an assembled SPD matrix A (zero on the Dirichlet DOFs)."""

    def __init__(self, mat: ng.BaseMatrix, freedofs: ng.BitArray, fallback_inverse: str = "sparsecholesky"):
        free = np.fromiter(freedofs, dtype=bool, count=len(freedofs))
        self.ndof = len(free)
        self.free = np.nonzero(free)[0]
        self.backend = "cholmod" if cholespy is not None else f"ngsolve {fallback_inverse}"
        if cholespy is not None:
            rows, cols, vals = mat.COO()
            a = sp.csr_matrix(
                (np.asarray(vals), (np.asarray(rows), np.asarray(cols))), shape=(self.ndof, self.ndof)
            )
            a = a[self.free][:, self.free].tocsr()
            a.sum_duplicates()
            self._chol = cholespy.CholeskySolverD(
                len(self.free),
                a.indptr.astype(np.int32),
                a.indices.astype(np.int32),
                np.ascontiguousarray(a.data, dtype=np.float64),
                cholespy.MatrixType.CSR,
            )
        else:
            self._inv = mat.Inverse(freedofs, inverse=fallback_inverse)
            self._x = mat.CreateColVector()
            self._y = mat.CreateColVector()

    def solve_free(self, b: np.ndarray) -> np.ndarray:
        """x = A⁻¹b for b on the free DOFs only: shape (n_free,) or (n_free, k)."""
        b = np.ascontiguousarray(b, dtype=np.float64)
        if cholespy is not None:
            x = np.empty_like(b)
            self._chol.solve(b, x)
            return x
        cols = b.reshape(len(self.free), -1)
        out = np.empty_like(cols)
        xv, yv = self._x.FV().NumPy(), self._y.FV().NumPy()
        for j in range(cols.shape[1]):
            xv[:] = 0.0
            xv[self.free] = cols[:, j]
            self._y.data = self._inv * self._x
            out[:, j] = yv[self.free]
        return out.reshape(b.shape)

    def solve_into(self, rhs: np.ndarray, out: np.ndarray) -> None:
        """out = A⁻¹rhs on all DOFs (rows), zero on the Dirichlet ones; 1D or (ndof, k) arrays."""
        x = self.solve_free(rhs[self.free])
        out[...] = 0.0
        out[self.free] = x


__all__ = ["StepFactor"]
