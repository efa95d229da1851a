"""WR-90 rectangular waveguide: matched two-port transmission and the TE10 cutoff (closed form).

β = √(k0² − (π/a)²), S21 = e^{-jβL} (e^{+jωt}), |S11| → 0 for an empty matched guide. Below the TE10
cutoff 6.557 GHz the mode is evanescent, |S21| = e^{-αL} with α = √((π/a)² − k0²).
"""

import cmath
import math

import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.testing.rf_meshes import WR90_A, waveguide_mesh

L = 0.1


@pytest.fixture(scope="module")
def wr90():
    mesh = waveguide_mesh(L, maxh=0.008)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    return FullwaveSolver(mesh, uniform_media(), 3, "default", ports)


def beta_te10(f: float) -> complex:
    k0 = 2 * math.pi * f / C0
    return cmath.sqrt(k0**2 - (math.pi / WR90_A) ** 2)


@pytest.mark.parametrize("f", [8.2e9, 10e9, 12.4e9])
def test_wr90_matched_line(wr90, f):
    sol = wr90.solve(f)
    beta = beta_te10(f).real
    s11_db = 20 * math.log10(abs(sol.s[0, 0]))
    mag_err = abs(abs(sol.s[1, 0]) - 1)
    phase_err = (math.degrees(cmath.phase(sol.s[1, 0]) + beta * L) + 180) % 360 - 180
    print(
        f"WR-90 {f / 1e9:.1f} GHz: |S11| = {s11_db:.1f} dB, ||S21|-1| = {mag_err:.1e}, "
        f"∠S21 error {phase_err:+.3f}° (β = {beta:.3f} rad/m), {wr90.ndof} unknowns"
    )
    assert s11_db < -40
    assert mag_err < 1e-3
    RECORDER.record(
        f"em-wr90-s21-phase-{f / 1e9:g}ghz",
        value=math.degrees(cmath.phase(sol.s[1, 0])),
        reference=math.degrees((-beta * L + math.pi) % (2 * math.pi) - math.pi),
        error=phase_err,
        unknowns=wr90.ndof,
        order=3,
    )
    assert abs(sol.s[0, 1] - sol.s[1, 0]) < 1e-9  # reciprocity
    reported = sol.port_props[0]["beta_rad_per_m"]
    assert abs(reported - beta) < 1e-9 * beta
    if f == 10e9:
        assert abs(beta - 158.238) < 1e-3


@pytest.mark.parametrize("f", [5.0e9, 6.0e9, 6.4e9])
def test_te10_cutoff_transmission_collapses(wr90, f):
    sol = wr90.solve(f)
    alpha = abs(beta_te10(f).imag)
    expected = math.exp(-alpha * L)
    err = abs(abs(sol.s[1, 0]) - expected) / expected
    print(
        f"WR-90 below cutoff {f / 1e9:.1f} GHz: |S21| = {abs(sol.s[1, 0]):.3e}, e^(-αL) = {expected:.3e}, rel. error {err:.1e}"
    )
    assert abs(sol.s[1, 0]) < 0.06
    RECORDER.record(
        f"em-wr90-cutoff-{f / 1e9:.1f}ghz",
        value=abs(sol.s[1, 0]),
        reference=expected,
        error=err,
        unknowns=wr90.ndof,
        order=3,
    )


def test_transmission_recovers_above_cutoff(wr90):
    below, above = wr90.solve(6.3e9), wr90.solve(6.9e9)
    print(f"|S21| 6.3 GHz {abs(below.s[1, 0]):.3e} → 6.9 GHz {abs(above.s[1, 0]):.4f}")
    assert abs(below.s[1, 0]) < 0.05 < 0.99 < abs(above.s[1, 0])


def test_sweep_shared_by_two_processes_matches_one(monkeypatch):
    from fieldline_engine.em.fullwave.sweep import run_sweep

    mesh = waveguide_mesh(L, maxh=0.012)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    freqs = [8e9, 9e9, 10e9, 11e9, 12e9]
    results = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("FIELDLINE_SWEEP_WORKERS", workers)
        solver = FullwaveSolver(mesh, uniform_media(), 2, "default", ports)
        results[workers], _ = run_sweep(solver, freqs, 10e9, "wave_port", 50.0)
    assert results["2"]["workers"] == 2 and results["1"]["workers"] == 1
    diff = max(
        abs(complex(*a) - complex(*b))
        for ma, mb in zip(results["1"]["matrix"], results["2"]["matrix"], strict=True)
        for ra, rb in zip(ma, mb, strict=True)
        for a, b in zip(ra, rb, strict=True)
    )
    print(f"sweep on 2 processes vs 1: max |ΔS| = {diff:.1e}")
    assert diff < 1e-12
