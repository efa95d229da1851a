"""Probe values as rows of a sparse matrix: E (and H) at a point are linear in the DOFs.

E(p) = Σ u_i φ_i(p) over the DOFs of the element holding p, and μH(p) = −∇×Φ(p) likewise in the time
integral Φ, so three rows per probe give E from u, three more give H from Φ. Building them costs one
point evaluation per DOF of that element (a few dozen, once); the time loop then reads every probe with
one sparse product a step instead of two NGSolve point evaluations per probe (each ≈ 0.1 ms, the
largest per-step cost after the factor's substitution on small meshes). The values are the same
evaluations, so they agree with `gf(mip)` to rounding.
"""

import ngsolve as ng
import numpy as np
import scipy.sparse as sp


def point_rows(fes: ng.FESpace, mips: list, make_cf, columns: np.ndarray | None = None) -> sp.csr_matrix:
    """(3·len(mips) × ndof) rows: row 3k + c is component c of `make_cf(gf)` at mips[k], as a linear
    function of gf's DOF vector. `make_cf(gf)` must build a CF linear in the GridFunction gf.
    `columns`: only these DOFs, in this order (the free ones a time loop steps; the others are zero)."""
    column_of = np.arange(fes.ndof)
    if columns is not None:
        column_of = np.full(fes.ndof, -1)
        column_of[columns] = np.arange(len(columns))
    gf = ng.GridFunction(fes)
    cf = make_cf(gf)
    vec = gf.vec.FV().NumPy()
    rows, cols, vals = [], [], []
    for k, mip in enumerate(mips):
        dofs = [d for d in fes.GetDofNrs(ng.ElementId(ng.VOL, mip.nr)) if d >= 0 and column_of[d] >= 0]
        for d in dofs:
            vec[:] = 0.0
            vec[d] = 1.0
            value = np.asarray(cf(mip), dtype=float).ravel()[:3]
            for c in range(3):
                if value[c] != 0.0:
                    rows.append(3 * k + c)
                    cols.append(column_of[d])
                    vals.append(value[c])
    width = fes.ndof if columns is None else len(columns)
    return sp.csr_matrix((vals, (rows, cols)), shape=(3 * len(mips), width))


__all__ = ["point_rows"]
