"""Newmark's frequency warping undone: a PEC cavity rung at a large time step reads its resonance to the
mesh's accuracy once the exact map f = tan(πf_dΔt)/(πΔt) is applied (warping.py).

Cavity 10 × 8 × 12 mm, TE101 (E along y) at f = c/2·√(1/a² + 1/d²) = 19.51212 GHz. At Δt = 6 ps (8.5 steps
a period) Newmark rings ≈ 4.2 % low; the corrected frequency is left with the order-2 mesh's error only
(the explicit scheme at 0.9 of its stable step reads +0.15 % on the same mesh, test_explicit_ringing.py)."""

import math

import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.sources import VolumeCurrent
from fieldline_engine.em.transient.warping import (
    continuous_frequency,
    discrete_frequency,
    probe_resonances,
)
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import cavity_mesh

A, B, D = 10e-3, 8e-3, 12e-3
TE101 = 0.5 * C0 * math.sqrt(1 / A**2 + 1 / D**2)
DT = 6e-12


@pytest.mark.parametrize("scheme", ["newmark", "explicit"])
def test_maps_round_trip_and_match_the_small_step_series(scheme):
    f, dt = 10e9, 1e-12
    assert discrete_frequency(continuous_frequency(f, dt, scheme), dt, scheme) == pytest.approx(f, rel=1e-12)
    x = 2 * math.pi * f * dt
    series = -(x**2) / 12 if scheme == "newmark" else x**2 / 24  # relative error of the recorded frequency
    assert discrete_frequency(f, dt, scheme) / f - 1 == pytest.approx(series, rel=0.01)
    assert continuous_frequency(f, dt, "implicit") == f


def test_newmark_at_a_large_step_reads_the_resonance_after_unwarping():
    mesh = cavity_mesh((A, B, D), 0.003)
    wf = Waveform("modulated_gaussian", 40e-12, 160e-12, 19.5e9)
    solver = TransientSolver(
        mesh, uniform_media(1.0), 2, "default", wf, currents=[VolumeCurrent((0, 1.0, 0), 0.0, None)]
    )
    steps = math.ceil(0.8e-9 / DT)
    probes, _ = solver.probes_at([(0.3 * A, 0.5 * B, 0.35 * D)])
    run = solver.run("newmark", DT, steps, probes=probes, energy_stride=steps)
    found = probe_resonances(run.times, run.probe_e, "newmark", wf, (15e9, 24e9))
    assert found is not None and found["corrected"]
    probe = found["probes"][0]
    assert probe["component"] == "y"
    peak = min(probe["peaks"], key=lambda p: abs(p["frequency_hz"] - TE101))
    raw = (peak["recorded_frequency_hz"] - TE101) / TE101
    error = (peak["frequency_hz"] - TE101) / TE101
    predicted = discrete_frequency(TE101, DT, "newmark") / TE101 - 1
    print(
        f"newmark Δt = {DT * 1e12:g} ps ({1 / (TE101 * DT):.1f} steps a period, {steps} steps, "
        f"{solver.ndof} unknowns): TE101 recorded {peak['recorded_frequency_hz'] / 1e9:.5f} GHz "
        f"({raw:+.3%}; warping alone predicts {predicted:+.3%}), unwarped "
        f"{peak['frequency_hz'] / 1e9:.5f} GHz, exact {TE101 / 1e9:.5f} GHz (error {error:+.3%})"
    )
    RECORDER.record(
        "em-ringdown-te101-newmark-unwarped",
        value=peak["frequency_hz"],
        reference=TE101,
        error=error,
        unknowns=solver.ndof,
        order=2,
    )
    assert np.isfinite(peak["frequency_hz"])
    assert abs(raw - predicted) < 0.005  # the recorded shift is the scheme's warping, as stated
    assert abs(error) < 0.005
