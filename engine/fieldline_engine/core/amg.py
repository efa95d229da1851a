"""Smoothed-aggregation AMG (pyamg) as a preconditioner for NGSolve's CG on real first-order systems
(H1 scalar problems, and elasticity with its rigid-body modes as the near-null space), and as the coarse
solver of the H1 two-level preconditioner for higher orders (core/h1_two_level.py).

For order 1 there is no BDDC wirebasket to exploit, and pyamg beats NGSolve's h1amg on these Laplace-type
systems (bench/em-static: ~3× less solve time at 1e5 DOFs): classical (Ruge–Stüben) AMG for scalar P1
systems, smoothed aggregation with the rigid-body modes for elasticity and for the vertex block of higher
orders. The matrix goes to scipy once (free DOFs only); each application is one V-cycle.
"""

import importlib.util
from collections.abc import Callable

import ngsolve as ng
import numpy as np

from fieldline_engine.core import bits

# Couplings below this fraction of sqrt(|a_ii a_jj|) are round-off of entries that are exactly zero (on a
# Kuhn-split brick half of a P1 Laplacian's off-diagonal entries are ~1e-17 of the diagonal). Kept, they count
# as "strong" connections and spoil the aggregates: bench/em-static P1 at 1e5 DOFs took 13 CG iterations with
# them and 8 without, the same as scikit-fem's matrix, where they come out as exact zeros.
ROUND_OFF = 1e-12


# Scalar problems: one forward Gauss–Seidel sweep before the coarse level and one backward after (still a
# symmetric cycle) instead of a symmetric sweep on each side: 11 iterations against 8 but ~20 % less set-up plus
# CG time (bench/em-static, P1 at 1e5 DOFs).
SCALAR_SMOOTHERS = {
    "presmoother": ("gauss_seidel", {"sweep": "forward"}),
    "postsmoother": ("gauss_seidel", {"sweep": "backward"}),
}


def available() -> bool:
    """Whether pyamg is installed, without importing it (with SciPy that is ~0.5 CPU s of start-up, paid only
    by the runs that build AMG)."""
    return importlib.util.find_spec("pyamg") is not None


def csr_rows(mat: ng.BaseMatrix, rows: int | None = None):
    """The first `rows` rows (all by default) of NGSolve's sparse matrix as a scipy CSR matrix over all
    columns, sharing NGSolve's arrays where it can (a COO copy was ~2× the matrix again at the peak)."""
    import scipy.sparse as sp  # here, not at the top: most runs never build AMG

    vals, cols, starts = (np.asarray(part) for part in mat.CSR())
    rows = mat.height if rows is None else rows
    end = int(starts[rows])
    index = np.int32 if len(vals) < 2**31 else np.int64
    return sp.csr_matrix(
        (vals[:end], cols[:end].astype(index, copy=False), starts[: rows + 1].astype(index)),
        shape=(rows, mat.width),
    )


def without_round_off(block):
    """`block` (square scipy CSR) without the couplings that are round-off zeros (ROUND_OFF)."""
    diagonal = np.sqrt(np.abs(block.diagonal()))
    # One pass over the entries finds the few that could be round-off (below the bound for the largest
    # diagonal); the per-entry test runs on those only (it was ~8 % of the AMG set-up at 1e6 DOFs on all).
    candidates = np.flatnonzero(np.abs(block.data) < ROUND_OFF * np.max(diagonal, initial=0.0) ** 2)
    if not len(candidates):
        return block
    rows = np.searchsorted(block.indptr, candidates, side="right") - 1
    bound = ROUND_OFF * diagonal[rows] * diagonal[block.indices[candidates]]
    drop = candidates[np.abs(block.data[candidates]) < bound]
    if not len(drop):
        return block
    block.data[drop] = 0.0
    block.eliminate_zeros()
    return block


class SmoothedAggregation(ng.BaseMatrix):
    """One V-cycle of smoothed aggregation on the `freedofs` block of `mat`, zero elsewhere. `near_null`
    (n × k, all DOFs): the modes the operator nearly annihilates — the six rigid-body motions for
    elasticity — so aggregation keeps them; None for Laplace-type systems (constants). `rows` < n: the
    block lies in the first `rows` DOFs (the vertex DOFs of a higher-order H1 space), and only those rows
    are read."""

    def __init__(
        self,
        mat: ng.BaseMatrix,
        freedofs: ng.BitArray,
        near_null: np.ndarray | None = None,
        rows: int | None = None,
    ):
        super().__init__()
        self.n = mat.height
        top = csr_rows(mat, rows)
        free = bits.mask(freedofs)[: top.shape[0]]
        self.free = np.nonzero(free)[0]
        restricted = without_round_off(top[self.free][:, self.free].tocsr())
        del top
        self.cycle = self._cycle(restricted, near_null)

    def _cycle(self, restricted, near_null: np.ndarray | None) -> Callable[[np.ndarray], np.ndarray]:
        """b ↦ one V-cycle applied to b (free DOFs only)."""
        import pyamg

        if near_null is not None:  # elasticity keeps pyamg's defaults, tuned with its modes
            ml = pyamg.smoothed_aggregation_solver(restricted, B=np.ascontiguousarray(near_null[self.free]))
        else:
            ml = pyamg.smoothed_aggregation_solver(restricted, **SCALAR_SMOOTHERS)
        return ml.aspreconditioner(cycle="V").matvec

    def Mult(self, x: ng.BaseVector, y: ng.BaseVector) -> None:  # noqa: N802 - NGSolve's interface
        out = y.FV().NumPy()
        out[:] = 0.0
        out[self.free] = self.cycle(x.FV().NumPy()[self.free])

    def Height(self) -> int:  # noqa: N802
        return self.n

    def Width(self) -> int:  # noqa: N802
        return self.n


class ClassicalAMG(SmoothedAggregation):
    """Ruge–Stüben (classical) AMG with direct interpolation, for a scalar first-order (P1) system: on these
    M-matrix-like Laplacians it needs fewer CG iterations than smoothed aggregation (bench/em-static, P1 at 1e5
    DOFs: 7 against 11; at 1e6: 10 against 12) and its set-up skips the spectral-radius estimate and the
    prolongation smoothing; pyamg's default classical interpolation costs ~2× the set-up for no fewer
    iterations there. Coarse levels stop at 200 unknowns (pyamg's default 10 adds levels that cost more in
    set-up than the pseudo-inverse of a 200 × 200 matrix). pyamg's hierarchy, built and cycled on its kernels
    without its Python bookkeeping, in single precision (core/ruge_stuben.py: at 1e6 unknowns ~25 % less set-up
    and ~20 % less per cycle in double precision, and another ~20 % in single)."""

    def _cycle(self, restricted, near_null: np.ndarray | None) -> Callable[[np.ndarray], np.ndarray]:
        from fieldline_engine.core.ruge_stuben import RugeStubenCycle

        assert near_null is None
        return RugeStubenCycle(restricted, max_coarse=200, single=True).apply
