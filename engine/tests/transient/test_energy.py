"""Energy: the lossless Newmark run conserves energy once the source is off; with a uniform conductivity
σ every field in a PEC cavity decays as e^{−σt/ε} (εÿ + σẏ + ky = 0 per mode), so ln W has slope −σ/ε."""

import math

import ngsolve as ng
import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.constants import EPS0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.sources import VolumeCurrent
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import WR90_A, WR90_B, cavity_mesh

D = 50e-3
DT = 2e-12
# The pulse is off (e^{-36}) well before the window that is checked.
WF = Waveform("modulated_gaussian", 0.1e-9, 0.6e-9, 8e9)
SOURCE_OFF_STEPS = 600


def cavity_solver(sigma: float = 0.0) -> TransientSolver:
    mesh = cavity_mesh((WR90_A, WR90_B, D), 0.008)
    box = ng.IfPos(ng.z - 0.2 * D, 1, 0) * ng.IfPos(0.3 * D - ng.z, 1, 0)
    return TransientSolver(
        mesh,
        uniform_media(1.0, 1.0, sigma),
        2,
        "default",
        WF,
        currents=[VolumeCurrent((0, 1.0, 0.3), 0.0, box)],
    )


def test_lossless_newmark_conserves_energy_over_1000_steps():
    solver = cavity_solver()
    run = solver.run("newmark", DT, SOURCE_OFF_STEPS + 1000, energy_stride=1)
    w = (run.energy_electric + run.energy_magnetic)[SOURCE_OFF_STEPS:]
    drift = float(np.max(np.abs(w - w[0])) / w[0])
    exchange = float(np.ptp(run.energy_electric[SOURCE_OFF_STEPS:]) / w[0])
    print(
        f"lossless Newmark: energy {w[0]:.6e} J, max relative change over 1000 steps {drift:.2e} "
        f"(electric part swings by {exchange:.0%} of it); {solver.ndof} unknowns"
    )
    RECORDER.record(
        "em-energy-conservation", value=drift, reference=0.0, error=drift, unknowns=solver.ndof, order=2
    )
    assert exchange > 0.1  # the energy really moves between E and H while the total stays


def test_conductivity_damps_energy_at_sigma_over_epsilon():
    sigma = 0.5e9 * EPS0  # σ/ε = 5e8 1/s: e^{-1} over 2 ns
    solver = cavity_solver(sigma)
    run = solver.run("newmark", DT, SOURCE_OFF_STEPS + 1500, energy_stride=5)
    keep = run.energy_times >= SOURCE_OFF_STEPS * DT
    t = run.energy_times[keep]
    w = (run.energy_electric + run.energy_magnetic)[keep]
    slope = np.polyfit(t, np.log(w), 1)[0]
    rate = sigma / EPS0
    err = (-slope - rate) / rate
    print(f"σ = {sigma:.3e} S/m: energy decay rate {-slope:.4e} 1/s, σ/ε = {rate:.4e} 1/s (error {err:+.2%})")
    RECORDER.record("em-energy-decay", value=-slope, reference=rate, error=err, unknowns=solver.ndof, order=2)
    assert w[-1] < w[0] * math.exp(-0.5)


@pytest.mark.parametrize("scheme", ["implicit"])
def test_bdf2_dissipates_but_never_gains_energy(scheme):
    solver = cavity_solver()
    run = solver.run(scheme, DT, SOURCE_OFF_STEPS + 400, energy_stride=10)
    keep = run.energy_times >= SOURCE_OFF_STEPS * DT
    w = (run.energy_electric + run.energy_magnetic)[keep]
    loss = 1 - w[-1] / w[0]
    print(f"BDF2 lossless cavity: energy falls by {loss:.3%} over 400 steps (numerical damping)")
    assert 0 <= loss < 0.05
