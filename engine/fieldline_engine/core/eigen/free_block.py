"""An NGSolve operator applied to blocks of vectors on the free DOFs (LOBPCG and ARPACK work on NumPy arrays of the
free DOFs only)."""

import ngsolve as ng
import numpy as np

from fieldline_engine.limits import parallel


class FreeBlock:
    """An NGSolve operator on the free DOFs applied to the columns of an (n_free, k) array: each column is
    scattered into a full vector (zero on the constrained DOFs), multiplied and gathered."""

    def __init__(self, op: ng.BaseMatrix, like: ng.BaseMatrix, free: np.ndarray, ndof: int):
        self.op, self.free, self.ndof = op, free, ndof
        self.x, self.y = like.CreateColVector(), like.CreateColVector()
        self.x[:] = 0.0
        self.xn, self.yn = self.x.FV().NumPy(), self.y.FV().NumPy()

    def __call__(self, block: np.ndarray) -> np.ndarray:
        squeeze = block.ndim == 1
        block = block.reshape(len(self.free), -1)
        out = np.empty_like(block)
        with parallel(self.ndof):
            for j in range(block.shape[1]):
                self.xn[self.free] = block[:, j]
                self.y.data = self.op * self.x
                out[:, j] = self.yn[self.free]
        return out[:, 0] if squeeze else out

    def full(self, block: np.ndarray) -> np.ndarray:
        """The operator on full-length columns (every DOF, e.g. the rigid translations)."""
        out = np.empty_like(block)
        with parallel(self.ndof):
            for j in range(block.shape[1]):
                self.xn[:] = block[:, j]
                self.y.data = self.op * self.x
                out[:, j] = self.yn
        self.xn[:] = 0.0
        return out
