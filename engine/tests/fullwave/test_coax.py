"""RG-401 coaxial line with TEM wave ports (curved order-2 mesh).

Z0 = η0/(2π√εr)·ln(b/a) = 50.05 Ω; the engine's Z_VI comes from the FEM fields (voltage across the
gap, current around the inner conductor). Renormalising port 1 to 100 Ω with port 2 matched gives
Γ = (100 − Z0)/(100 + Z0), |S11| = −9.54 dB.
"""

import math

import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.constants import ETA0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.fullwave.sparameters import db, renormalise
from fieldline_engine.em.fullwave.sweep import port_line_impedances
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.testing.rf_meshes import RG401_EPS_R, RG401_INNER, RG401_OUTER, coax_mesh

Z0 = ETA0 / (2 * math.pi * math.sqrt(RG401_EPS_R)) * math.log(RG401_OUTER / RG401_INNER)


@pytest.fixture(scope="module")
def coax():
    mesh = coax_mesh(0.01, maxh=0.002, curve_order=2, curvature_safety=1.0)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TEM", RG401_EPS_R) for k in range(2)]
    solver = FullwaveSolver(mesh, uniform_media(RG401_EPS_R), 2, "default", ports)
    return solver, solver.solve(10e9)


def test_coax_port_is_detected_as_tem(coax):
    solver, _ = coax
    face = solver.ports[0].face
    print(f"coax port: a = {face.dims['inner'] * 1e3:.5f} mm, b = {face.dims['outer'] * 1e3:.5f} mm")
    assert face.shape == "coax" and solver.ports[0].mode.family == "TEM"
    assert abs(face.dims["inner"] - RG401_INNER) < 1e-9 and abs(face.dims["outer"] - RG401_OUTER) < 1e-9


def test_coax_characteristic_impedance(coax):
    solver, sol = coax
    z = port_line_impedances(solver, sol, 0)
    err_vi = abs(z["z_vi_ohm"] - Z0) / Z0
    err_pv = abs(z["z_pv_ohm"] - Z0) / Z0
    print(
        f"RG-401 Z0: Z_VI = {z['z_vi_ohm']:.3f} Ω (error {err_vi:.2%}), Z_PV = {z['z_pv_ohm']:.3f} Ω "
        f"(error {err_pv:.2%}), exact {Z0:.3f} Ω; {solver.ndof} unknowns"
    )
    assert abs(Z0 - 50.05) < 0.01
    for case, z_num, err in (
        ("em-coax-z0-vi", z["z_vi_ohm"], err_vi),
        ("em-coax-z0-pv", z["z_pv_ohm"], err_pv),
    ):
        RECORDER.record(case, value=z_num, reference=Z0, error=err, unknowns=solver.ndof, order=2)


def test_coax_100_ohm_renormalisation(coax):
    solver, sol = coax
    z_line = [port_line_impedances(solver, sol, p)["z_vi_ohm"] for p in range(2)]
    s = renormalise(sol.s, z_line, [100.0, z_line[1]])
    expected = 20 * math.log10((100 - Z0) / (100 + Z0))
    print(f"100 Ω renormalisation: |S11| = {db(s[0, 0]):.3f} dB, expected {expected:.3f} dB (−9.54)")
    RECORDER.record(
        "em-coax-renormalise",
        value=db(s[0, 0]),
        reference=expected,
        error=db(s[0, 0]) - expected,
        unknowns=solver.ndof,
        order=2,
    )
    assert abs(db(s[0, 0]) + 9.54) < 0.1
    assert abs(abs(s[1, 0]) - math.sqrt(1 - abs(s[0, 0]) ** 2)) < 2e-3  # lossless: |S11|² + |S21|² = 1


def test_a_tem_port_reports_its_line_impedance_not_the_wave_impedance(coax):
    """Issue 40: a TEM port showed η/√εr (260 Ω in PTFE) where an RF engineer reads Z0 = V/I (≈ 50 Ω)."""
    from fieldline_engine.em.fullwave.solver import port_props_dicts

    solver, sol = coax
    k0 = 2 * math.pi * 10e9 / 299_792_458.0
    props = port_props_dicts([p.propagation(k0) for p in solver.ports])
    line = props[0]["line_impedance_ohm"]
    wave = props[0]["wave_impedance_ohm"]
    z_vi = port_line_impedances(solver, sol, 0)["z_vi_ohm"]
    print(
        f"TEM port: line impedance {line:.3f} Ω (V/I from the fields {z_vi:.3f} Ω), wave impedance {wave:.1f} Ω"
    )
    assert abs(line - Z0) < 1e-9 * Z0
    assert abs(line - z_vi) / Z0 < 0.01
    assert abs(wave - ETA0 / math.sqrt(RG401_EPS_R)) < 1e-9 * wave
