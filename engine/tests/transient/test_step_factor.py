"""The step factor (em/transient/factor.py): CHOLMOD's Cholesky and NGSolve's sparsecholesky are both
exact on the Newmark matrix of a PEC cavity, zero on the Dirichlet DOFs, and a block of right-hand sides
gives the same columns as one substitution each; excitations stepped as block columns of one time loop
give the records of separate runs."""

import numpy as np
import pytest

from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.em.transient import factor
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.sources import VolumeCurrent
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import WR90_A, WR90_B, cavity_mesh, coax_mesh

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


@pytest.mark.parametrize(("scheme", "dt"), [("newmark", 2e-12), ("implicit", 2e-12), ("explicit", 0.5e-12)])
def test_excitations_as_block_columns_match_one_by_one(scheme, dt):
    """Two wave ports of a lossy coax (σ exercises the damping products) driven as two columns of one time
    loop give the port records of two separate runs, for every scheme."""
    mesh = coax_mesh(0.02, maxh=0.008, curve_order=0, curvature_safety=1.0)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TEM", 1.0, amplitude=1.0 - k) for k in range(2)]
    solver = TransientSolver(
        mesh,
        uniform_media(1.0, 1.0, 0.05),
        1,
        "default",
        Waveform("gaussian", 30e-12, 150e-12, 0.0),
        ports=ports,
    )
    kw = {"energy_stride": 200, "record_currents": False}
    alone = [solver.run(scheme, dt, 200, **kw), solver.run(scheme, dt, 200, drive_port="2", **kw)]
    block = solver.run(scheme, dt, 200, also_drive=["2"], **kw)
    assert block.columns == 2 and list(block.port_drive_runs) == ["2"]
    worst = max(
        float(np.max(np.abs(b.port_modal[q] - a.port_modal[q])) / np.max(np.abs(a.port_modal[q])))
        for a, b in zip(alone, (block, block.port_drive_runs["2"]), strict=True)
        for q in ("1", "2")
    )
    print(
        f"{scheme}: {solver.ndof} unknowns, block ({block.factor}) vs one by one: max relative difference {worst:.1e}"
    )
    assert worst < 1e-10
