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

from fieldline_engine.core.sparse import CsrArrays, csr_arrays

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


def combine_on_pattern(terms: list[tuple[float, CsrArrays]]) -> CsrArrays:
    """Σ w·A for matrices of one finite element space: the first one's pattern holds the others' (M and K
    share theirs; a boundary term's couplings are among the volume's), so the sum is arithmetic on its
    data array. Falls back to scipy's sparse sum when a pattern does not fit. Scipy's own binary
    operators cost milliseconds on first use in a process, more than a small run's whole stepping."""
    (w0, base), rest = terms[0], terms[1:]
    data = w0 * base.data
    keys = None
    for w, a in rest:
        if a.indptr is base.indptr or (
            np.array_equal(a.indptr, base.indptr) and np.array_equal(a.indices, base.indices)
        ):
            data += w * a.data
            continue
        if keys is None:
            keys = _entry_keys(base)
        at = np.searchsorted(keys, _entry_keys(a))
        if np.any(at >= len(keys)) or np.any(keys[np.minimum(at, len(keys) - 1)] != _entry_keys(a)):
            out = w0 * base.to_scipy()
            for w2, a2 in rest:
                out = out + w2 * a2.to_scipy()
            out = out.tocsr()
            out.sum_duplicates()
            return CsrArrays(out.data, out.indices, out.indptr, out.shape)
        np.add.at(data, at, w * a.data)
    return CsrArrays(data, base.indices, base.indptr, base.shape)


def _entry_keys(a: CsrArrays) -> np.ndarray:
    """row·n + column of every stored entry: sorted for a CSR matrix with sorted column indices."""
    rows = np.repeat(np.arange(a.shape[0], dtype=np.int64), np.diff(a.indptr))
    return rows * a.shape[1] + a.indices


def free_block(a: CsrArrays, free: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR arrays (indptr, indices as int32; data) of a[free][:, free] for sorted `free` indices, without
    scipy's fancy indexing (milliseconds on first use): renumbering keeps rows and columns in order."""
    keep, indptr, indices = _free_selection(a, free)
    return indptr, indices, np.ascontiguousarray(a.data[keep], dtype=np.float64)


def free_blocks(matrices: list[CsrArrays], free: np.ndarray) -> list[CsrArrays]:
    """a[free][:, free] of each matrix, as CsrArrays; matrices with the first one's pattern (M and K of
    one space) reuse its selection, so only their values are picked."""
    out: list[CsrArrays] = []
    shared = None
    n = len(free)
    for a in matrices:
        base = matrices[0]
        if shared is not None and (
            a.indptr is base.indptr
            or (np.array_equal(a.indptr, base.indptr) and np.array_equal(a.indices, base.indices))
        ):
            keep, indptr, indices = shared
            out.append(
                CsrArrays(np.ascontiguousarray(a.data[keep], dtype=np.float64), indices, indptr, (n, n))
            )
            continue
        keep, indptr, indices = _free_selection(a, free)
        if a is base:
            shared = keep, indptr, indices
        out.append(CsrArrays(np.ascontiguousarray(a.data[keep], dtype=np.float64), indices, indptr, (n, n)))
    return out


def _free_selection(a: CsrArrays, free: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which stored entries of `a` lie in its free block, and that block's indptr and indices (int32)."""
    renumber = np.full(a.shape[0], -1, dtype=np.int64)
    renumber[free] = np.arange(len(free))
    rows = np.repeat(renumber, np.diff(a.indptr))
    cols = renumber[a.indices]
    keep = (rows >= 0) & (cols >= 0)
    indptr = np.zeros(len(free) + 1, dtype=np.int32)
    np.cumsum(np.bincount(rows[keep], minlength=len(free)), out=indptr[1:])
    return keep, indptr, cols[keep].astype(np.int32)


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


def cholmod_available() -> bool:
    return cholespy is not None


class StepFactor:
    """A⁻¹ on the free DOFs of an assembled SPD matrix A (zero on the Dirichlet DOFs)."""

    def __init__(
        self,
        mat: ng.BaseMatrix | None,
        freedofs: ng.BitArray,
        block: bool = False,
        inverse: str = "sparsecholesky",
        csr: CsrArrays | None = None,
        free_csr: CsrArrays | None = None,
    ):
        """`block`: the factor will solve blocks of right-hand sides (CHOLMOD where installed).
        `csr`: A as CSR arrays on all DOFs, or `free_csr`: its free block (for CHOLMOD; `mat` may then
        be None)."""
        free = np.fromiter(freedofs, dtype=bool, count=len(freedofs))
        self.ndof = len(free)
        self.free = np.nonzero(free)[0]
        self._chol = None
        if block and cholespy is not None:
            self.backend = "cholmod"
            if free_csr is not None:
                indptr, indices, data = free_csr.indptr, free_csr.indices, free_csr.data
            else:
                indptr, indices, data = free_block(csr if csr is not None else csr_arrays(mat), self.free)
            self._chol = cholespy.CholeskySolverD(
                len(self.free), indptr, indices, data, cholespy.MatrixType.CSR
            )
        else:
            self.backend = f"ngsolve {inverse}"
            self._inv = mat.Inverse(freedofs, inverse=inverse)
            self._x = mat.CreateColVector()
            self._y = mat.CreateColVector()

    @classmethod
    def from_csr(cls, csr: CsrArrays, freedofs: ng.BitArray) -> "StepFactor":
        """CHOLMOD's factor of a matrix given as scipy CSR (needs cholespy)."""
        return cls(None, freedofs, block=True, csr=csr)

    @classmethod
    def from_free_csr(cls, free_csr: CsrArrays, freedofs: ng.BitArray) -> "StepFactor":
        """CHOLMOD's factor of a matrix given as its free block in CSR (needs cholespy)."""
        return cls(None, freedofs, block=True, free_csr=free_csr)

    def solve_free_into(self, b: np.ndarray, out: np.ndarray) -> None:
        """out = A⁻¹b on the free DOFs (b and out: (n_free,) or (n_free, k), C-contiguous float)."""
        if self._chol is not None and b.flags.c_contiguous and b.dtype == np.float64:
            self._chol.solve(b, out)
            return
        out[...] = self.solve_free(b)

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


__all__ = [
    "StepFactor",
    "cholmod_available",
    "combine_on_pattern",
    "free_block",
    "free_blocks",
    "use_block_factor",
]
