"""Probe rows (em/transient/probe_rows.py): E and H at a point read as sparse rows of the DOF vector
equal NGSolve's point evaluation of the same fields, for a random order-2 HCurl field."""

import ngsolve as ng
import numpy as np

from fieldline_engine.em.constants import MU0
from fieldline_engine.em.transient.probe_rows import point_rows
from fieldline_engine.testing.rf_meshes import cavity_mesh


def test_rows_equal_point_evaluation_of_e_and_h():
    mesh = cavity_mesh((10e-3, 8e-3, 12e-3), 0.004)
    fes = ng.HCurl(mesh, order=2, dirichlet="default")
    points = [(3e-3, 4e-3, 4.2e-3), (7.1e-3, 2.5e-3, 9e-3)]
    mips = [mesh(*p) for p in points]
    inv_mu = ng.CF(0.5)
    rows_e = point_rows(fes, mips, lambda g: g)
    rows_h = point_rows(fes, mips, lambda g: (-1.0 / MU0) * (inv_mu * ng.curl(g)))
    gf = ng.GridFunction(fes)
    vec = np.random.default_rng(3).standard_normal(fes.ndof)
    gf.vec.FV().NumPy()[:] = vec
    h_cf = (-1.0 / MU0) * (inv_mu * ng.curl(gf))
    for k, mip in enumerate(mips):
        e_ref = np.asarray(gf(mip)).ravel()
        h_ref = np.asarray(h_cf(mip)).ravel()
        e_row = rows_e[3 * k : 3 * k + 3] @ vec
        h_row = rows_h[3 * k : 3 * k + 3] @ vec
        print(f"probe {k}: |E| {np.linalg.norm(e_ref):.4g}, row error {np.abs(e_row - e_ref).max():.1e}")
        np.testing.assert_allclose(e_row, e_ref, rtol=1e-12, atol=1e-12 * np.abs(e_ref).max())
        np.testing.assert_allclose(h_row, h_ref, rtol=1e-12, atol=1e-12 * np.abs(h_ref).max())
