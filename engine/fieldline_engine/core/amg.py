"""Smoothed-aggregation AMG (pyamg) as a preconditioner for NGSolve's CG on real first-order systems
(H1 scalar problems, and elasticity with its rigid-body modes as the near-null space).

For order 1 there is no BDDC wirebasket to exploit, and pyamg's smoothed aggregation beats NGSolve's
h1amg on these Laplace-type systems (bench/em-static: ~3× less solve time at 1e5 DOFs). The matrix goes
to scipy once (free DOFs only); each application is one V-cycle.
"""

import importlib.util

import ngsolve as ng
import numpy as np


def available() -> bool:
    """Whether pyamg is installed, without importing it (with SciPy that is ~0.5 CPU s of start-up, paid only
    by the runs that build AMG)."""
    return importlib.util.find_spec("pyamg") is not None


class SmoothedAggregation(ng.BaseMatrix):
    """`near_null` (n × k, all DOFs): the modes the operator nearly annihilates — the six rigid-body motions
    for elasticity — so aggregation keeps them; None for Laplace-type systems (constants)."""

    def __init__(self, mat: ng.BaseMatrix, freedofs: ng.BitArray, near_null: np.ndarray | None = None):
        import pyamg
        import scipy.sparse as sp  # here, not at the top: most runs never build AMG

        super().__init__()
        self.n = mat.height
        # NGSolve's own CSR arrays as views (COO triplets and a second CSR were ~2× the matrix again at the
        # peak); only the free-DOF block below is a copy.
        vals, cols, starts = (np.asarray(part) for part in mat.CSR())
        index = np.int32 if len(vals) < 2**31 else np.int64
        full = sp.csr_matrix(
            (vals, cols.astype(index, copy=False), starts.astype(index)), shape=(self.n, self.n)
        )
        self.free = np.nonzero(np.array(freedofs, dtype=bool))[0]
        restricted = full[self.free][:, self.free].tocsr()
        kwargs = {} if near_null is None else {"B": np.ascontiguousarray(near_null[self.free])}
        self.cycle = pyamg.smoothed_aggregation_solver(restricted, **kwargs).aspreconditioner(cycle="V")

    def Mult(self, x: ng.BaseVector, y: ng.BaseVector) -> None:  # noqa: N802 - NGSolve's interface
        out = y.FV().NumPy()
        out[:] = 0.0
        out[self.free] = self.cycle.matvec(x.FV().NumPy()[self.free])

    def Height(self) -> int:  # noqa: N802
        return self.n

    def Width(self) -> int:  # noqa: N802
        return self.n
