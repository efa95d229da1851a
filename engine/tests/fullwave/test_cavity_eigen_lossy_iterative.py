"""Lossy cavities on the iterative eigen path: shift-and-invert Arnoldi whose inner solves are GMRES + BDDC
(eigen_shift_invert.py), against the direct path (the same Arnoldi on a sparse LU) and closed form.

- A PEC WR-90 cavity filled with a lossy dielectric εr(1 − j·tanδ): every mode's k² is the lossless one
  divided by 1 − j·tanδ, so f = f0 · Re √(1/(εr(1 − j·tanδ))) and Q = Re s / (2 Im s), s = √(1/(1 − j·tanδ))
  (≈ 1/tanδ), exactly: the frozen-at-the-shift loss is exact for a loss tangent.
- A copper-walled WR-90 cavity (Leontovich impedance walls, no gradient projection): TE101 Q against
  Pozar 6.46, Q_c = 7230.
Both paths must agree on f and Q to 1e-6 relative.
"""

import math
import time

import pytest

from fieldline_engine.em.fullwave.eigen import cavity_eigen, eigen_method
from fieldline_engine.em.fullwave.impedance import good_conductor_impedance
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import ImpedanceWall
from fieldline_engine.testing.rf_meshes import cavity_mesh

WR90_CAVITY = (22.86e-3, 10.16e-3, 50e-3)
LOSSLESS_AIR = {"TE101": 7.209968e9, "TE102": 8.885173e9, "TE103": 11.130321e9}


def _both(mesh, media, pec, **kwargs):
    direct = cavity_eigen(mesh, media, 2, pec, linear_solver="direct", **kwargs)
    started = time.process_time()
    it = cavity_eigen(mesh, media, 2, pec, linear_solver="gmres-bddc", **kwargs)
    cpu = time.process_time() - started
    assert (direct.method, it.method) == ("direct", "iterative")
    info = it.info
    print(
        f"iterative: {cpu:.1f} CPU s, {info['eigen_operator_applications']} Arnoldi solves, "
        f"{info['inner_iterations']} GMRES iterations (worst {info['inner_worst_iterations']}), "
        f"residuals {info['eigen_residuals']}"
    )
    assert all(r < 1e-6 for r in info["eigen_residuals"])
    return direct, it


def test_lossy_dielectric_cavity_matches_direct_and_closed_form():
    eps_r, tan_d = 2.2, 2e-3
    mesh = cavity_mesh(WR90_CAVITY, maxh=0.005)
    direct, it = _both(mesh, uniform_media(eps_r=eps_r * complex(1, -tan_d)), "default", n_modes=3)
    s = (1 - 1j * tan_d) ** -0.5
    q_exact = s.real / (2 * s.imag)
    assert it.info["projection_worst_leak"] <= 1e-9
    for d, m, (name, f_air) in zip(direct.modes, it.modes, LOSSLESS_AIR.items(), strict=True):
        f_exact = f_air / math.sqrt(eps_r) * s.real
        df = abs(m.frequency / d.frequency - 1)
        dq = abs(m.q_factor / d.q_factor - 1)
        print(
            f"{name}: iterative f {m.frequency / 1e9:.9f} GHz Q {m.q_factor:.6f}; direct f {d.frequency / 1e9:.9f} "
            f"Q {d.q_factor:.6f}; |Δf|/f {df:.1e} |ΔQ|/Q {dq:.1e}; vs closed form f {m.frequency / f_exact - 1:+.4%} "
            f"Q {m.q_factor / q_exact - 1:+.1e} (Q exact {q_exact:.6f})"
        )
        assert df < 1e-6 and dq < 1e-6
        assert abs(m.frequency / f_exact - 1) < 1e-3  # the mesh's error, as for the lossless cavity
        assert abs(m.q_factor / q_exact - 1) < 1e-6  # tanδ alone sets Q, whatever the mesh


def test_copper_walled_cavity_q_matches_direct_and_pozar():
    mesh = cavity_mesh(WR90_CAVITY, maxh=0.006, wall_label="impedance_0")
    walls = [ImpedanceWall("impedance_0", good_conductor_impedance(5.8e7))]
    direct, it = _both(mesh, uniform_media(), "", n_modes=1, shift_frequency=7.21e9, walls=walls)
    d, m = direct.modes[0], it.modes[0]
    df, dq = abs(m.frequency / d.frequency - 1), abs(m.q_factor / d.q_factor - 1)
    q_pozar = 7230
    print(
        f"copper TE101: iterative f {m.frequency / 1e9:.9f} GHz Q {m.q_factor:.3f}; direct Q {d.q_factor:.3f}; "
        f"|Δf|/f {df:.1e} |ΔQ|/Q {dq:.1e}; Q vs Pozar {m.q_factor / q_pozar - 1:+.2%}"
    )
    assert df < 1e-6 and dq < 1e-6
    assert abs(m.q_factor / q_pozar - 1) < 0.02


def test_lossy_routing_follows_the_lossless_rule():
    assert eigen_method("auto", 50_000, lossy=True) == "direct"
    assert eigen_method("auto", 150_000, lossy=True) == "iterative"
    # the complex factor is twice the real one: 50 k lossy needs ≈ 2.7 GB, lossless ≈ 1.8 GB
    assert eigen_method("auto", 50_000, lossy=False, memory_limit_mb=2_000) == "direct"
    assert eigen_method("auto", 50_000, lossy=True, memory_limit_mb=2_000) == "iterative"
    assert eigen_method("gmres-bddc", 1_000, lossy=True) == "iterative"


@pytest.mark.parametrize("solver", ["direct", "gmres-bddc"])
def test_a_lossy_dielectric_has_no_spurious_modes(solver):
    """The lossy direct path returned spurious modes near k² ≈ σ/4 before the gradient was applied to complex
    vectors by parts (eigen_iterative.Gradient): the lowest mode must be TE101 on both paths."""
    mesh = cavity_mesh(WR90_CAVITY, maxh=0.008)
    sol = cavity_eigen(
        mesh, uniform_media(eps_r=complex(1, -1e-3)), 2, "default", n_modes=1, linear_solver=solver
    )
    err = sol.modes[0].frequency / LOSSLESS_AIR["TE101"] - 1
    print(f"{solver}: lowest mode {sol.modes[0].frequency / 1e9:.6f} GHz, vs TE101 {err:+.3%}")
    assert abs(err) < 5e-3
