"""The order-1 magnetostatic solvers agree (docs/magnetics.md §4): CG with the auxiliary-space (Hiptmair–Xu)
preconditioner gives the factorization's inductance in few iterations, and its interpolation Π is NGSolve's
own embedding of first-order vector H1 in the edge space."""

import math

import ngsolve as ng
import numpy as np
import scipy.sparse as sp
from netgen import occ
from netgen.occ import OCCGeometry

from fieldline_engine.core.h1_scalar import SolverOptions
from fieldline_engine.core.hcurl_aux import SMOOTHING, VCycle, _csr, _interpolation
from fieldline_engine.em.constants import MU0
from fieldline_engine.em.magnetics.run import run_magnetostatic
from fieldline_engine.em.magnetics.setup import CoilSpec
from fieldline_engine.em.magnetics.solver import BodyMagnetics

A, B, H, T = 0.02, 0.03, 0.01, 0.002


def ring(r1, r2, z1, z2):
    return occ.Cylinder(occ.Pnt(0, 0, z1), occ.Z, r=r2, h=z2 - z1) - occ.Cylinder(
        occ.Pnt(0, 0, z1), occ.Z, r=r1, h=z2 - z1
    )


def toroid_mesh() -> ng.Mesh:
    core = ring(A, B, -H / 2, H / 2)
    core.mat("body0")
    winding = ring(A - T, B + T, -H / 2 - T, H / 2 + T) - core
    winding.mat("body1")
    air = occ.Cylinder(occ.Pnt(0, 0, -0.02), occ.Z, r=0.05, h=0.04) - core - winding
    air.mat("body2")
    return ng.Mesh(OCCGeometry(occ.Glue([core, winding, air])).GenerateMesh(maxh=0.004))


def test_auxiliary_space_cg_matches_the_factorization():
    mesh = toroid_mesh()
    bodies = [BodyMagnetics(1000.0), BodyMagnetics(), BodyMagnetics()]
    coil = CoilSpec("winding", 1, 100, 1.0, None, 0, None)
    direct = run_magnetostatic(mesh, bodies, [coil], 1, SolverOptions("direct"))
    cg = run_magnetostatic(mesh, bodies, [coil], 1, SolverOptions("cg-amg", tolerance=1e-8))
    info = cg.solver_info
    l_direct, l_cg = direct.quantities["inductance_H"], cg.quantities["inductance_H"]
    exact = MU0 * 1000.0 * 100**2 * H * math.log(B / A) / (2 * math.pi)
    print(
        f"[magnetics] order 1, {info['matrix_size']} unknowns: L direct {l_direct:.6e}, HX-CG {l_cg:.6e} "
        f"({info['iterations']} iterations), closed form {exact:.6e}"
    )
    assert info["preconditioner"].startswith("auxiliary-space AMG")
    assert info["iterations"] <= 40
    assert abs(l_cg - l_direct) <= 1e-6 * l_direct
    assert abs(l_direct - exact) <= 0.01 * exact


def test_interpolation_is_ngsolves_embedding_of_vector_h1():
    mesh = toroid_mesh()
    fes = ng.HCurl(mesh, order=1, nograds=True, dirichlet=".*")
    gradient, _ = fes.CreateGradient()
    pi = _interpolation(_csr(gradient, sp), np.asarray(mesh.ngmesh.Coordinates()), sp)
    vector_h1 = ng.VectorH1(mesh, order=1)
    embedding = ng.ConvertOperator(spacea=vector_h1, spaceb=fes)
    reference = _csr(embedding, sp).copy()
    nv = mesh.nv
    interleaved = np.array([d * nv + v for v in range(nv) for d in range(3)])
    assert abs(reference[:, interleaved] - pi).max() < 1e-12 * abs(reference).max()


def test_the_v_cycle_is_pyamgs_own():
    """VCycle (core/hcurl_aux.py) applies a hierarchy's V-cycle without pyamg's per-application residual norms
    and argument checks: the same operator as pyamg's aspreconditioner, on a scalar (CSR) hierarchy, a 3×3-block
    (BSR) one like the vector nodal space's, and one too small for more than the coarse solver."""
    import pyamg

    rng = np.random.default_rng(7)
    laplace = pyamg.gallery.poisson((12, 12, 12), format="csr")
    vector = sp.kron(laplace, sp.eye(3)).tobsr(blocksize=(3, 3))
    cases = [
        pyamg.smoothed_aggregation_solver(laplace, improve_candidates=None, **SMOOTHING),
        pyamg.smoothed_aggregation_solver(
            vector, B=np.kron(np.ones((laplace.shape[0], 1)), np.eye(3)), improve_candidates=None, **SMOOTHING
        ),
        pyamg.smoothed_aggregation_solver(pyamg.gallery.poisson((3, 3), format="csr"), **SMOOTHING),
    ]
    assert [len(h.levels) > 1 for h in cases] == [True, True, False]
    for hierarchy in cases:
        b = rng.standard_normal(hierarchy.levels[0].A.shape[0])
        reference = hierarchy.aspreconditioner(cycle="V").matvec(b)
        assert np.abs(VCycle(hierarchy)(b) - reference).max() <= 1e-12 * np.abs(reference).max()
