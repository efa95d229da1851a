"""`limits.parallel`: small systems run inside a one-thread TaskManager (NGSolve's sparse Cholesky otherwise
starts a TaskManager of its own with every thread, whose waking cost 12–30 ms of CPU per small factorization
on a busy machine), the thread count set for the job comes back afterwards, and a TaskManager already
running is left alone."""

import ngsolve as ng
import numpy as np

from fieldline_engine.limits import THREADED_MIN_DOFS, parallel
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.testing.meshes import box_mesh


def test_small_systems_factor_on_one_thread_and_the_thread_count_comes_back():
    before = ng.ngsglobals.numthreads
    try:
        ng.SetNumThreads(2)
        mesh = build_ngsolve_mesh(model_from_mesh_data(box_mesh((1.0, 1.0, 1.0), (3, 3, 3))))
        fes = ng.H1(mesh, order=2, dirichlet="default")
        u, v = fes.TnT()
        a = ng.BilinearForm(ng.grad(u) * ng.grad(v) * ng.dx).Assemble()
        f = ng.LinearForm(v * ng.dx).Assemble()
        x = ng.GridFunction(fes)
        with parallel(fes.ndof):
            assert ng.GetNumThreads() == 1
            x.vec.data = a.mat.Inverse(fes.FreeDofs(), inverse="sparsecholesky") * f.vec
        assert ng.ngsglobals.numthreads == 2
        reference = ng.GridFunction(fes)
        reference.vec.data = a.mat.Inverse(fes.FreeDofs(), inverse="umfpack") * f.vec
        difference = np.max(np.abs(x.vec.FV().NumPy() - reference.vec.FV().NumPy()))
        size = np.max(np.abs(reference.vec.FV().NumPy()))
        print(f"one-thread sparse Cholesky vs UMFPACK: max difference {difference:.1e} of {size:.3e}")
        assert size > 0 and difference < 1e-12 * size

        with ng.TaskManager():
            with parallel(fes.ndof):  # inside a running TaskManager: nothing changes
                assert ng.GetNumThreads() == 2
            assert ng.GetNumThreads() == 2
        with parallel(THREADED_MIN_DOFS):
            assert ng.GetNumThreads() == 2
    finally:
        ng.SetNumThreads(before)
