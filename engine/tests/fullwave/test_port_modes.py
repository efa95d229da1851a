"""Port faces and modes: cross-section detection, analytic modes against the 2D eigen solve.

Closed forms: rectangle k_c(TE_mn/TM_mn) = π√((m/a)² + (n/b)²); circle k_c(TE11) = 1.841184/R,
k_c(TM01) = 2.404826/R; coaxial TEM k_c = 0 with Z0 = η0/(2π√εr)·ln(b/a).
"""

import cmath
import math

import ngsolve as ng
import pytest
from netgen.occ import Cylinder, OCCGeometry, Pnt, Z
from validation.recorder import RECORDER

from fieldline_engine.em.constants import ETA0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.fullwave.sweep import port_line_impedances
from fieldline_engine.em.ports.eigenmode import numeric_mode
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.testing.rf_meshes import (
    RG401_EPS_R,
    RG401_INNER,
    RG401_OUTER,
    WR90_A,
    WR90_B,
    coax_mesh,
    waveguide_mesh,
)

R = 0.012


@pytest.fixture(scope="module")
def wr90_mesh():
    return waveguide_mesh(0.1, maxh=0.008)


@pytest.fixture(scope="module")
def round_guide():
    cyl = Cylinder(Pnt(0, 0, 0), Z, r=R, h=0.03)
    cyl.faces.name = "default"
    cyl.faces.Min(Z).name = "port_0"
    cyl.faces.Max(Z).name = "port_1"
    mesh = ng.Mesh(OCCGeometry(cyl).GenerateMesh(maxh=0.006))
    mesh.Curve(3)
    return mesh


def test_rectangular_face_detected_and_numeric_modes_match(wr90_mesh):
    port = build_wave_port(wr90_mesh, "port_0", "1", "TE10")
    assert port.face.shape == "rectangle" and port.mode.source == "analytic"
    assert abs(port.face.dims["a"] - WR90_A) < 1e-12 and abs(port.face.dims["b"] - WR90_B) < 1e-12
    cases = {
        "TE10": math.pi / WR90_A,
        "TE20": 2 * math.pi / WR90_A,
        "TM01": math.pi * math.hypot(1 / WR90_A, 1 / WR90_B),  # TM11, the lowest TM mode
    }
    for mode, kc in cases.items():
        num = numeric_mode(wr90_mesh, port.face, mode, order=3)
        err = (num.cutoff_wavenumber - kc) / kc
        print(
            f"rectangle {mode}: 2D eigen k_c = {num.cutoff_wavenumber:.4f}, exact {kc:.4f} rad/m, error {err:+.1e}"
        )
        RECORDER.record(
            f"em-port-mode-{'tm11' if mode == 'TM01' else mode.lower()}",
            value=num.cutoff_wavenumber,
            reference=kc,
            error=err,
            order=3,
        )
    assert build_wave_port(wr90_mesh, "port_0", "1", "TM01").mode.name == "TM11"


def test_waveguide_with_numeric_port_modes(wr90_mesh):
    ports = [build_wave_port(wr90_mesh, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    for p in ports:
        p.mode = numeric_mode(wr90_mesh, p.face, "TE10", order=3)
    sol = FullwaveSolver(wr90_mesh, uniform_media(), 3, "default", ports).solve(10e9)
    err = (math.degrees(cmath.phase(sol.s[1, 0]) + 158.238 * 0.1) + 180) % 360 - 180
    print(
        f"WR-90 with 2D-eigen ports: |S11| {20 * math.log10(abs(sol.s[0, 0])):.1f} dB, ∠S21 error {err:+.3f}°"
    )
    assert abs(sol.s[0, 0]) < 0.01 and abs(abs(sol.s[1, 0]) - 1) < 1e-3 and abs(err) < 0.5


def test_circular_face_analytic_and_numeric(round_guide):
    port = build_wave_port(round_guide, "port_0", "1", "TE10")
    assert port.face.shape == "circle" and abs(port.face.dims["radius"] - R) < 1e-9
    assert port.mode.name == "TE11" and abs(port.mode.cutoff_wavenumber * R / 1.841183781 - 1) < 1e-6
    tm = build_wave_port(round_guide, "port_0", "1", "TM01").mode
    assert tm.name == "TM01" and abs(tm.cutoff_wavenumber * R / 2.404825558 - 1) < 1e-6
    for mode, kc in (("TE10", 1.841183781 / R), ("TM01", 2.404825558 / R)):
        num = numeric_mode(round_guide, port.face, mode, order=2)
        err = (num.cutoff_wavenumber - kc) / kc
        print(
            f"circle {mode}: 2D eigen k_c = {num.cutoff_wavenumber:.3f}, exact {kc:.3f} rad/m, error {err:+.1e}"
        )
        assert abs(err) < 2e-3
    # analytic TE11 through a round guide: matched transmission at 9 GHz (above the 7.32 GHz cutoff)
    ports = [build_wave_port(round_guide, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    sol = FullwaveSolver(round_guide, uniform_media(), 2, "default", ports).solve(9e9)
    print(
        f"round guide TE11 9 GHz: |S11| {20 * math.log10(abs(sol.s[0, 0])):.1f} dB, |S21| {abs(sol.s[1, 0]):.4f}"
    )
    assert abs(sol.s[0, 0]) < 0.03 and abs(abs(sol.s[1, 0]) - 1) < 2e-3


def test_coaxial_tem_by_2d_solve():
    mesh = coax_mesh(0.01, maxh=0.002, curve_order=2, curvature_safety=1.0)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TEM", RG401_EPS_R) for k in range(2)]
    for p in ports:
        p.mode = numeric_mode(mesh, p.face, "TEM", RG401_EPS_R, order=2)
        assert p.mode.cutoff_wavenumber == 0.0 and p.mode.family == "TEM"
    solver = FullwaveSolver(mesh, uniform_media(RG401_EPS_R), 2, "default", ports)
    sol = solver.solve(10e9)
    z = port_line_impedances(solver, sol, 0)["z_vi_ohm"]
    z0 = ETA0 / (2 * math.pi * math.sqrt(RG401_EPS_R)) * math.log(RG401_OUTER / RG401_INNER)
    print(
        f"coax with 2D-solved TEM: |S11| {20 * math.log10(abs(sol.s[0, 0])):.1f} dB, Z_VI {z:.3f} Ω vs {z0:.3f} Ω"
    )
    assert abs(sol.s[0, 0]) < 0.01 and abs(z - z0) / z0 < 0.01
