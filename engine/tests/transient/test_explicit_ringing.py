"""Explicit (leap-frog) scheme at its stable step: the ringing frequency of a PEC cavity against the
closed form. Cavity 10 × 8 × 12 mm (a × b × d); its lowest mode TE101 (E along y) rings at
f = c/2·√(1/a² + 1/d²) = 19.51469 GHz. A y-directed current pulse at the cavity's side rings it; the
probe's spectrum after the pulse peaks at the resonance. Leap-frog's own frequency error is
≈ +(ωΔt)²/24 (at the stable step on this mesh ≈ +0.1 %); the rest is the order-2 mesh's."""

import math

import numpy as np
from validation.recorder import RECORDER

from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.sources import VolumeCurrent
from fieldline_engine.em.transient.spectrum import resonance_peaks
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import cavity_mesh

A, B, D = 10e-3, 8e-3, 12e-3
TE101 = 0.5 * C0 * math.sqrt(1 / A**2 + 1 / D**2)


def test_explicit_rings_at_the_te101_frequency():
    mesh = cavity_mesh((A, B, D), 0.003)
    wf = Waveform("modulated_gaussian", 40e-12, 160e-12, 19.5e9)
    solver = TransientSolver(
        mesh, uniform_media(1.0), 2, "default", wf, currents=[VolumeCurrent((0, 1.0, 0), 0.0, None)]
    )
    limit = solver.stability_limit()
    dt = 0.9 * limit.critical_time_step
    steps = math.ceil(0.8e-9 / dt)
    probes, _ = solver.probes_at([(0.3 * A, 0.5 * B, 0.35 * D)])
    run = solver.run("explicit", dt, steps, probes=probes, energy_stride=steps, stability=limit)
    after = run.times > 0.32e-9  # the pulse is below e^-16 of its peak
    peaks = resonance_peaks(run.times[after], run.probe_e["P1"][after, 1], 15e9, 24e9)
    found = peaks[0][0]
    error = (found - TE101) / TE101
    print(
        f"explicit: TE101 at {found / 1e9:.5f} GHz, exact {TE101 / 1e9:.5f} GHz (error {error:+.3%}); "
        f"Δt = {dt:.4g} s = 0.9 × the stable step, {steps} steps, {solver.ndof} unknowns, "
        f"{run.steps / run.seconds_stepping:.0f} steps/s"
    )
    RECORDER.record(
        "em-ringdown-te101-explicit",
        value=found,
        reference=TE101,
        error=error,
        unknowns=solver.ndof,
        order=2,
    )
    assert np.isfinite(found)
    assert abs(error) < 0.01
