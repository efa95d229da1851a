"""PEC cavity ringdown: a current pulse rings the WR-90 cavity 22.86 × 10.16 × 50 mm; the spectrum of an
E-field probe peaks at the resonances f = c/2·√((m/a)² + (n/b)² + (p/d)²): TE101 7.209968 GHz,
TE102 8.885173 GHz, TE103 11.130321 GHz."""

import ngsolve as ng
import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.sources import VolumeCurrent
from fieldline_engine.em.transient.spectrum import resonance_peaks
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import WR90_A, WR90_B, cavity_mesh

D = 50e-3
MODES = {"TE101": 7.209968e9, "TE102": 8.885173e9, "TE103": 11.130321e9}


def ringdown(scheme: str):
    mesh = cavity_mesh((WR90_A, WR90_B, D), 0.008)
    a = WR90_A
    box = (
        ng.IfPos(ng.x - 0.4 * a, 1, 0)
        * ng.IfPos(0.6 * a - ng.x, 1, 0)
        * ng.IfPos(ng.z - 0.2 * D, 1, 0)
        * ng.IfPos(0.3 * D - ng.z, 1, 0)
    )
    wf = Waveform("modulated_gaussian", 0.1e-9, 0.5e-9, 8e9)
    solver = TransientSolver(
        mesh, uniform_media(1.0), 2, "default", wf, currents=[VolumeCurrent((0, 1.0, 0), 0.0, box)]
    )
    probes, _ = solver.probes_at([(0.3 * a, 0.5 * WR90_B, 0.3 * D)])
    dt = 2e-12
    run = solver.run(scheme, dt, 3000, probes=probes, energy_stride=100)
    return solver, run


@pytest.mark.parametrize("scheme", ["newmark", "implicit"])
def test_probe_spectrum_shows_cavity_resonances(scheme):
    solver, run = ringdown(scheme)
    start = int(1.2e-9 / run.time_step)  # after the source
    e_y = run.probe_e["P1"][start:, 1]
    peaks = resonance_peaks(run.times[start:], e_y, 5e9, 13e9)
    errors = {}
    for name, f in MODES.items():
        found = min(peaks, key=lambda p: abs(p[0] - f))[0]
        errors[name] = (found - f) / f
        print(
            f"{scheme}: {name} at {found / 1e9:.5f} GHz, exact {f / 1e9:.6f} GHz (error {errors[name]:+.3%})"
        )
    print(f"  {solver.ndof} unknowns, {run.steps} steps in {run.seconds_stepping:.1f} s")
    found = MODES["TE101"] * (1 + errors["TE101"])
    RECORDER.record(
        f"em-ringdown-te101-{scheme}",
        value=found,
        reference=MODES["TE101"],
        error=errors["TE101"],
        unknowns=solver.ndof,
        order=2,
    )
    assert all(abs(e) < 0.01 for e in errors.values())
