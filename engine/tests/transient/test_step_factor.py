"""The step factor (physics/transient/factor.py): CHOLMOD's supernodal Cholesky and NGSolve's
sparsecholesky are both exact on the Newmark matrix of a PEC cavity, zero on the Dirichlet DOFs, and a
block of right-hand sides gives the same columns as one substitution each."""

import numpy as np
import pytest

from fieldline_engine.physics.fullwave.media import uniform_media
from fieldline_engine.physics.transient import factor
from fieldline_engine.physics.transient.solver import TransientSolver
from fieldline_engine.physics.transient.sources import VolumeCurrent
from fieldline_engine.physics.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import WR90_A, WR90_B, cavity_mesh

DT = 2e-12


def newmark_matrix():
    mesh = cavity_mesh((WR90_A, WR90_B, 0.03), 0.01)
    solver = TransientSolver(
        mesh,
        uniform_media(1.0, 1.0, 0.01),
        2,
        "default",
        Waveform("gaussian", 30e-12, 150e-12, 0.0),
        currents=[VolumeCurrent((0, 1.0, 0.3))],
    )
    sys_ = solver.system
    mat = sys_._assemble(sys_.m_term, (DT / 2) * sys_.c_term, (DT * DT / 4) * sys_.k_term)
    return mat, sys_.freedofs


@pytest.mark.parametrize("backend", ["cholmod", "ngsolve"])
def test_factor_solves_the_step_matrix(backend, monkeypatch):
    if backend == "cholmod" and factor.cholespy is None:
        pytest.skip("cholespy is not installed")
    if backend == "ngsolve":
        monkeypatch.setattr(factor, "cholespy", None)
    mat, free = newmark_matrix()
    step = factor.StepFactor(mat, free, block=True)
    assert step.backend.startswith("cholmod" if backend == "cholmod" else "ngsolve")
    mask = np.fromiter(free, dtype=bool, count=len(free))
    rng = np.random.default_rng(3)
    rhs = rng.standard_normal((len(mask), 3))
    out = np.full_like(rhs, np.nan)
    step.solve_into(rhs, out)
    assert np.all(out[~mask] == 0.0)
    x, y = mat.CreateColVector(), mat.CreateColVector()
    worst = 0.0
    for j in range(rhs.shape[1]):
        x.FV().NumPy()[:] = out[:, j]
        y.data = mat * x
        residual = (y.FV().NumPy() - rhs[:, j])[mask]
        worst = max(worst, float(np.linalg.norm(residual) / np.linalg.norm(rhs[mask, j])))
        single = np.zeros(len(mask))
        step.solve_into(rhs[:, j].copy(), single)
        assert np.allclose(single, out[:, j], rtol=1e-12, atol=1e-14 * np.abs(out).max())
    print(f"{step.backend}: {mask.sum()} free DOFs, relative residual of 3 block columns {worst:.1e}")
    assert worst < 1e-10
