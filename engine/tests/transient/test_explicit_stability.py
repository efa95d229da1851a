"""Explicit (central-difference) scheme: the stable step 2/ω_max from the largest eigenvalue of K vs M is
the real limit: just below it the run stays bounded, just above it blows up."""

import numpy as np
import pytest

from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.sources import VolumeCurrent
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.errors import EngineError
from fieldline_engine.testing.rf_meshes import cavity_mesh


@pytest.fixture(scope="module")
def solver():
    mesh = cavity_mesh((10e-3, 8e-3, 12e-3), 0.005)
    wf = Waveform("gaussian", 20e-12, 100e-12, 0.0)
    return TransientSolver(mesh, uniform_media(1.0), 2, "default", wf, currents=[VolumeCurrent((0, 0, 1.0))])


def test_stable_step_is_the_limit(solver):
    limit = solver.stability_limit()
    dt_c = limit.critical_time_step
    print(
        f"explicit limit {dt_c:.5e} s (ω_max {limit.omega_max:.4e} rad/s, {limit.iterations} Lanczos matvecs)"
    )
    below = solver.run("explicit", 0.98 * dt_c, 1500, energy_stride=10)
    w = below.energy_electric + below.energy_magnetic
    settled = w[below.energy_times > 300e-12]
    # Leap-frog conserves a modified energy; the physical one wobbles by O((ωΔt)²) but must not grow.
    early, late = settled[: len(settled) // 5], settled[-len(settled) // 5 :]
    growth = float(late.max() / early.max())
    print(
        f"  at 0.98·limit: energy after the pulse wobbles by {np.ptp(settled) / settled.mean():.1%}, late/early peak {growth:.4f}"
    )
    assert growth < 1.02
    with pytest.raises(EngineError, match="became unstable") as exc:
        solver.run("explicit", 1.02 * dt_c, 1500, energy_stride=10)
    print(f"  at 1.02·limit: {exc.value.message}")
    assert exc.value.code == "unstable"
