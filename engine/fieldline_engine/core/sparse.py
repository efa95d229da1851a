"""Assembled NGSolve matrices as NumPy/SciPy arrays, without SciPy's per-call overheads where a small
system's set-up would feel them (its constructors and fancy indexing cost milliseconds on first use in
a process, more than a small transient run's whole stepping)."""

from dataclasses import dataclass

import ngsolve as ng
import numpy as np
import scipy.sparse as sp

try:  # scipy's own CSR kernel (what `a @ x` runs), called without scipy's Python dispatch
    from scipy.sparse._sparsetools import csr_matvec as _csr_matvec
except ImportError:  # pragma: no cover - a scipy without it: through scipy's operator
    _csr_matvec = None


@dataclass(frozen=True)
class CsrArrays:
    """A CSR matrix held as its three arrays, multiplied by SciPy's kernel: what a time loop needs of its
    matrices, without building SciPy objects (whose first construction in a process costs ~1 ms)."""

    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    shape: tuple[int, int]

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @classmethod
    def from_dense_rows(cls, rows: np.ndarray) -> "CsrArrays":
        """The nonzeros of a dense (k, n) array (a few functionals of a field's DOFs)."""
        r, c = np.nonzero(rows)
        indptr = np.zeros(rows.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(r, minlength=rows.shape[0]), out=indptr[1:])
        return cls(np.ascontiguousarray(rows[r, c], dtype=np.float64), c.astype(np.int64), indptr, rows.shape)

    def negated(self) -> "CsrArrays":
        return CsrArrays(-self.data, self.indices, self.indptr, self.shape)

    def to_scipy(self) -> sp.csr_matrix:
        return sp.csr_matrix((self.data, self.indices, self.indptr), shape=self.shape)

    def __matmul__(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x)
        if _csr_matvec is None or x.dtype != self.dtype or self.dtype != np.float64:
            return self.to_scipy() @ x
        if x.ndim == 1:
            out = np.zeros(self.shape[0])
            _csr_matvec(*self.shape, self.indptr, self.indices, self.data, np.ascontiguousarray(x), out)
            return out
        return np.stack([self @ x[:, j] for j in range(x.shape[1])], axis=1)


def csr_arrays(mat: ng.BaseMatrix) -> CsrArrays:
    """An assembled NGSolve sparse matrix's own CSR arrays (rows sorted, no duplicates), copied."""
    if not hasattr(mat, "CSR"):
        a = csr_of(mat)
        return CsrArrays(a.data, a.indices, a.indptr, a.shape)
    vals, cols, ptr = mat.CSR()
    index_type = np.int32 if len(vals) < 2**31 - 1 else np.int64  # the kernel wants one index type
    return CsrArrays(
        np.array(vals),
        np.array(cols, dtype=index_type),
        np.array(ptr, dtype=index_type),
        (mat.height, mat.width),
    )


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


def dense_block(mat: ng.BaseMatrix, index: np.ndarray) -> np.ndarray:
    """mat[index][:, index] as a dense array, for a few DOFs of a matrix that numbers many (a port face's
    DOFs in a space over the whole mesh): read straight from the CSR (or COO) arrays."""
    if hasattr(mat, "CSR"):
        vals, cols, ptr = (np.asarray(a) for a in mat.CSR())
        rows = np.repeat(np.arange(mat.height), np.diff(ptr).astype(np.int64))
    else:
        rows, cols, vals = (np.asarray(a) for a in mat.COO())
    position = np.full(mat.height, -1, dtype=np.int64)
    position[index] = np.arange(len(index))
    r, c = position[rows], position[cols]
    keep = (r >= 0) & (c >= 0)
    out = np.zeros((len(index), len(index)), dtype=np.asarray(vals).dtype)
    np.add.at(out, (r[keep], c[keep]), np.asarray(vals)[keep])  # COO may repeat an entry
    return out
