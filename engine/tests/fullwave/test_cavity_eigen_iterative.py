"""The iterative cavity-eigen path (LOBPCG + BDDC + gradient projection) against the direct one and closed form.

Forced with linearSolver "gmres-bddc" on the small meshes of test_cavity_eigen.py: the frequencies must match the
direct path's to 1e-6 (measured ≈ 1e-14) and the cube must show no spurious (zero or extra) modes. Lossy
cavities take shift-and-invert Arnoldi with iterative inner solves (test_cavity_eigen_lossy_iterative.py).
"""

import math
import time

import numpy as np
import pytest

from fieldline_engine.em.fullwave.eigen import cavity_eigen, eigen_method
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.errors import EngineError
from fieldline_engine.testing.rf_meshes import cavity_mesh

WR90_CAVITY = (22.86e-3, 10.16e-3, 50e-3)
EXACT = {"TE101": 7.209968e9, "TE102": 8.885173e9, "TE103": 11.130321e9}


def test_iterative_matches_direct_on_the_wr90_cavity():
    mesh = cavity_mesh(WR90_CAVITY, maxh=0.005)
    direct = cavity_eigen(mesh, uniform_media(), 2, "default", n_modes=3)
    started = time.process_time()
    it = cavity_eigen(mesh, uniform_media(), 2, "default", n_modes=3, linear_solver="gmres-bddc")
    cpu = time.process_time() - started
    assert (direct.method, it.method) == ("direct", "iterative")
    info = it.info
    print(
        f"iterative: {info['eigen_iterations']} LOBPCG iterations, {cpu:.1f} CPU s, residuals {info['eigen_residuals']}"
    )
    for d, m, (name, f) in zip(direct.modes, it.modes, EXACT.items(), strict=True):
        rel = abs(m.frequency - d.frequency) / d.frequency
        err = (m.frequency - f) / f
        print(
            f"{name}: iterative {m.frequency / 1e9:.9f} GHz, direct {d.frequency / 1e9:.9f} GHz, "
            f"|Δ|/f {rel:.1e}, vs closed form {err:+.4%}"
        )
        assert rel < 1e-6
        assert abs(err) < 1e-3
        assert m.q_factor is None
    assert all(r < 1e-6 for r in info["eigen_residuals"])
    assert info["projection_worst_leak"] <= 1e-9
    # the mode fields are the direct path's up to sign (M-normalised there too)
    for d, m in zip(direct.modes, it.modes, strict=True):
        a, b = d.field.vec.FV().NumPy(), m.field.vec.FV().NumPy()
        cos = abs(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b))
        assert cos > 1 - 1e-6


def test_iterative_cube_has_no_spurious_modes():
    mesh = cavity_mesh((math.pi,) * 3, maxh=0.9)
    sol = cavity_eigen(mesh, uniform_media(), 2, "default", n_modes=11, linear_solver="iterative")
    k2 = np.array([m.k_squared.real for m in sol.modes])
    expected = np.array([2, 2, 2, 3, 3, 5, 5, 5, 5, 5, 5], dtype=float)
    print("iterative cube k²:", " ".join(f"{v:.4f}" for v in k2))
    print(f"max relative error {np.max(np.abs(k2 - expected) / expected):.2e}")
    assert np.max(np.abs(k2 - expected) / expected) < 0.03


def test_a_stalled_solve_fails_naming_the_modes():
    mesh = cavity_mesh(WR90_CAVITY, maxh=0.006)
    with pytest.raises(EngineError, match="LOBPCG converged for .* of 3 cavity modes after 2 iterations"):
        from fieldline_engine.em.fullwave import eigen_iterative

        fes_media = uniform_media()
        import ngsolve as ng

        fes = ng.HCurl(mesh, order=1, dirichlet="default")
        eigen_iterative.lobpcg_cavity_modes(fes, fes_media, 3, 1e3, max_iterations=2)


def test_routing():
    assert eigen_method("auto", 50_000, lossy=False) == "direct"
    assert eigen_method("auto", 150_000, lossy=False) == "iterative"
    assert eigen_method("auto", 50_000, lossy=False, memory_limit_mb=500) == "iterative"  # factor won't fit
    assert eigen_method("direct", 150_000, lossy=False) == "direct"
