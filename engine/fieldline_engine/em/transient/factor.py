"""The step matrix's sparse Cholesky factor on the free DOFs, solved into numpy arrays.

Every scheme spends most of a step in one forward/back substitution with a constant SPD matrix, so the
factor's solve speed is the stepping speed. Two exact direct solvers (they agree to rounding, ~1e-14):
- NGSolve's `sparsecholesky` (minimum degree ordering): the fastest to factorize; the choice for short
  runs of one excitation.
- CHOLMOD via cholespy (simplicial, METIS nested-dissection ordering): 1–4× slower to factorize, never
  slower per substitution and often faster (less fill): 2.6× on a 1.7k-DOF cavity, 1.6× on the 3D
  sphere bench (6.6k free DOFs, compact, where minimum degree fills most), par on the 15k coax (long and
  thin), 1.8× at ~75k. It also substitutes a block of right-hand sides at once: two columns cost
  ~1.2–1.4× one. The choice for runs long enough to repay its factorization and when several
  excitations step together (the port-by-port S-matrix), and for runs of ≥ 100 steps on ≤ 10k free
  DOFs, where it factorizes in milliseconds, and for any run on ≤ 5k free DOFs; without cholespy those fall back to NGSolve's
  factor, one column at a time.
Measured in bench/em-transient/README.md.
"""

import ngsolve as ng
import numpy as np
import scipy.sparse as sp

try:  # an optional speed-up: the results do not depend on it
    import cholespy
except ImportError:  # pragma: no cover - exercised only where the wheel is missing
    cholespy = None


# CHOLMOD's slower factorization pays for itself through substitutions that are never slower, and
# faster on compact 3D meshes, once a run is long enough (sphere bench, 6.6k free DOFs: +0.1 s to
# factorize, −2 ms a step, even after ~50 steps; 75k free DOFs: +5.5 s, −35 ms a step, ~160 steps), and
# at any length when several columns share each substitution.
CHOLMOD_MIN_STEPS = 250
# On small systems its factorization costs milliseconds, so shorter runs already gain (sphere bench,
# 1.7k–3.7k unknowns, 140 steps: stepping 0.13 vs 0.19 CPU s with the factorization included).
CHOLMOD_SMALL_DOFS = 10_000
CHOLMOD_SMALL_MIN_STEPS = 100
# Below ~5k free DOFs it factorizes no slower than NGSolve's factor and substitutes ~3× faster, so it
# is the choice for a run of any length (coax wedges, Newmark at 8 ps, 89 steps: 1.8k unknowns,
# factorization 5–8 vs 9–33 ms, 89 substitutions 4 vs 12–15 ms; 4.2k unknowns (order 3): 29–34 vs
# 30–37 ms, 14–20 vs 29–47 ms).
CHOLMOD_ANY_STEPS_DOFS = 5_000


def csr_of(mat: ng.BaseMatrix) -> sp.csr_matrix:
    """An assembled NGSolve sparse matrix as scipy CSR: its own CSR arrays copied (rows already sorted,
    no duplicates: the same matrix the COO route builds, in a tenth of the time); COO otherwise."""
    if hasattr(mat, "CSR"):
        vals, cols, ptr = mat.CSR()
        out = sp.csr_matrix((np.array(vals), np.array(cols), np.array(ptr)), shape=(mat.height, mat.width))
    else:
        rows, cols, vals = mat.COO()
        out = sp.csr_matrix(
            (np.asarray(vals), (np.asarray(rows), np.asarray(cols))), shape=(mat.height, mat.width)
        )
    out.sum_duplicates()
    return out


def use_block_factor(free_dofs: int, columns: int, steps: int | None) -> bool:
    """Whether a run should step on CHOLMOD's factor rather than NGSolve's (see the module notes)."""
    if cholespy is None or free_dofs == 0:
        return False
    if columns > 1:
        return True
    if steps is None:
        return False
    return (
        steps >= CHOLMOD_MIN_STEPS
        or free_dofs <= CHOLMOD_ANY_STEPS_DOFS
        or (free_dofs <= CHOLMOD_SMALL_DOFS and steps >= CHOLMOD_SMALL_MIN_STEPS)
    )


class StepFactor:
    """A⁻¹ on the free DOFs of an assembled SPD matrix A (zero on the Dirichlet DOFs)."""

    def __init__(
        self, mat: ng.BaseMatrix, freedofs: ng.BitArray, block: bool = False, inverse: str = "sparsecholesky"
    ):
        """`block`: the factor will solve blocks of right-hand sides (CHOLMOD where installed)."""
        free = np.fromiter(freedofs, dtype=bool, count=len(freedofs))
        self.ndof = len(free)
        self.free = np.nonzero(free)[0]
        self._chol = None
        if block and cholespy is not None:
            self.backend = "cholmod"
            a = csr_of(mat)[self.free][:, self.free].tocsr()
            a.sum_duplicates()
            self._chol = cholespy.CholeskySolverD(
                len(self.free),
                a.indptr.astype(np.int32),
                a.indices.astype(np.int32),
                np.ascontiguousarray(a.data, dtype=np.float64),
                cholespy.MatrixType.CSR,
            )
        else:
            self.backend = f"ngsolve {inverse}"
            self._inv = mat.Inverse(freedofs, inverse=inverse)
            self._x = mat.CreateColVector()
            self._y = mat.CreateColVector()

    def solve_free(self, b: np.ndarray) -> np.ndarray:
        """x = A⁻¹b for b on the free DOFs only: shape (n_free,) or (n_free, k)."""
        b = np.ascontiguousarray(b, dtype=np.float64)
        if self._chol is not None:
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


__all__ = ["StepFactor", "use_block_factor"]
