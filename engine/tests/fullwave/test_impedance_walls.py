"""Leontovich impedance walls against closed form.

1. WR-90 with walls of a good conductor (σ given, Z_s = (1 + j)√(ωμ0/2σ)): TE10 conductor attenuation
   α_c = R_s (2bπ² + a³k²) / (a³ b β k η0)  (Pozar 3.96), so |S21| = e^{−α_c L}.
2. A matched load: a coaxial line closed by an impedance wall Z_s = η0/√εr absorbs the TEM wave.
3. The copper WR-90 cavity's TE101 Q by the eigen solver (Pozar 6.46): Q_c = 7230.
"""

import math

import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.constants import C0, ETA0, MU0
from fieldline_engine.em.fullwave.eigen import cavity_modes
from fieldline_engine.em.fullwave.impedance import good_conductor_impedance
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver, ImpedanceWall
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.testing.rf_meshes import WR90_A, WR90_B, cavity_mesh, waveguide_mesh

L = 0.1


def test_lossy_waveguide_walls_attenuate_as_pozar():
    sigma, f = 1e6, 10e9
    mesh = waveguide_mesh(L, maxh=0.008, wall_label="impedance_0")
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    walls = [ImpedanceWall("impedance_0", good_conductor_impedance(sigma))]
    sol = FullwaveSolver(mesh, uniform_media(), 3, "", ports, walls).solve(f)
    k = 2 * math.pi * f / C0
    beta = math.sqrt(k * k - (math.pi / WR90_A) ** 2)
    rs = math.sqrt(2 * math.pi * f * MU0 / (2 * sigma))
    a, b = WR90_A, WR90_B
    alpha = rs * (2 * b * math.pi**2 + a**3 * k**2) / (a**3 * b * beta * k * ETA0)
    alpha_fem = -math.log(abs(sol.s[1, 0])) / L
    err = (alpha_fem - alpha) / alpha
    print(f"WR-90 σ={sigma:g} S/m walls: α = {alpha_fem:.5f} Np/m, Pozar {alpha:.5f} Np/m, error {err:+.2%}")
    RECORDER.record("em-wall-loss", value=alpha_fem, reference=alpha, error=err, order=3)
    assert abs(sol.s[0, 0]) < 0.01


@pytest.mark.parametrize("quality", [1.0, 2.0])
def test_wall_with_line_impedance_is_a_matched_load(quality):
    """Z_s = η0 (air) terminates a TEM plane wave without reflection; 2η0 gives Γ = 1/3."""
    import ngsolve as ng
    from netgen.occ import Box, OCCGeometry, Y, Z

    from fieldline_engine.em.ports.modes import ModeShape

    box = Box((0, 0, 0), (0.02, 0.02, 0.05))
    box.faces.name = "pmc"
    box.faces.Min(Y).name = "default"
    box.faces.Max(Y).name = "default"
    box.faces.Min(Z).name = "port_0"
    box.faces.Max(Z).name = "impedance_0"
    mesh = ng.Mesh(OCCGeometry(box).GenerateMesh(maxh=0.01))
    port = build_wave_port(mesh, "port_0", "1", "TE10")
    port.mode = ModeShape("TEM", "TEM", 0.0, None, port.face, numeric_cf=ng.CF((0, 1, 0)))
    wall = ImpedanceWall("impedance_0", lambda _f: quality * ETA0)
    s11 = abs(FullwaveSolver(mesh, uniform_media(), 2, "default", [port], [wall]).solve(3e9).s[0, 0])
    expected = (quality - 1) / (quality + 1)
    print(f"impedance wall Z = {quality:g}·η0: |Γ| = {s11:.2e}, expected {expected:.4f}")
    assert abs(s11 - expected) < 1e-3


def test_copper_cavity_q_by_eigen_solver():
    mesh = cavity_mesh((22.86e-3, 10.16e-3, 50e-3), maxh=0.006, wall_label="impedance_0")
    walls = [ImpedanceWall("impedance_0", good_conductor_impedance(5.8e7))]
    mode = cavity_modes(mesh, uniform_media(), 2, "", n_modes=1, shift_frequency=7.21e9, walls=walls)[0]
    q_exact = 7230
    err = (mode.q_factor - q_exact) / q_exact
    print(
        f"copper TE101: f = {mode.frequency / 1e9:.5f} GHz, Q = {mode.q_factor:.0f}, Pozar {q_exact}, error {err:+.2%}"
    )
    assert abs(err) < 0.02
