"""Gaussian pulse on a coaxial line (RG-401 cross-section, L = 40 mm) shorted at the far end.

The TEM port launches the pulse and absorbs what comes back; the short reflects it with Γ = −1, so the
port voltage shows the echo inverted after 2L√εr/c: 0.26685 ns in air, 0.38486 ns with PTFE εr = 2.08
(Palace's coaxial example). Curved order-2 geometry, order-2 Nédélec, Newmark, Δt = 4 ps.
"""

import math

import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.em.constants import C0, ETA0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.spectrum import echo_delay
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import RG401_INNER, RG401_OUTER, coax_mesh

L = 0.04
TAU = 40e-12
DT = 4e-12


def shorted_coax_run(eps_r: float):
    mesh = coax_mesh(L, maxh=0.006, curve_order=2, curvature_safety=1.0, end_labels=("port_0", "default"))
    port = build_wave_port(mesh, "port_0", "1", "TEM", eps_r)
    wf = Waveform("gaussian", TAU, 5 * TAU, 0.0)
    solver = TransientSolver(mesh, uniform_media(eps_r), 2, "default", wf, ports=[port])
    echo = 2 * L * math.sqrt(eps_r) / C0
    steps = int(round((wf.delay + echo + 5 * TAU) / DT))
    return solver, solver.run("newmark", DT, steps, energy_stride=20), echo


@pytest.mark.parametrize("eps_r", [1.0, 2.08])
def test_short_circuit_echo_delay_and_polarity(eps_r):
    solver, run, exact = shorted_coax_run(eps_r)
    tdp = solver.ports[0]
    v = run.port_voltage["1"]
    v_inc = run.port_incident["1"] * tdp.mode_voltage
    echo = echo_delay(run.times, v_inc, v - v_inc)
    err = (echo.delay - exact) / exact
    print(
        f"coax εr={eps_r}: echo after {echo.delay * 1e9:.5f} ns, exact 2L√εr/c = {exact * 1e9:.5f} ns "
        f"(error {err:+.3%}), echo/incident = {echo.gain:+.4f}; {solver.ndof} unknowns, {run.steps} steps "
        f"in {run.seconds_stepping:.1f} s"
    )
    RECORDER.record(
        f"em-coax-echo-{eps_r}", value=echo.delay, reference=exact, error=err, unknowns=solver.ndof, order=2
    )
    assert echo.gain < -0.97  # inverted, nearly all of it
    # Before the echo arrives the port voltage is the incident pulse (the port launches it cleanly).
    before = run.times < solver.waveform.delay + 0.5 * exact
    leak = np.max(np.abs((v - v_inc)[before])) / np.max(np.abs(v_inc))
    # The TEM wave's V/I on the incident pulse is the line impedance η/(2π)·ln(b/a).
    z0 = ETA0 / math.sqrt(eps_r) / (2 * math.pi) * math.log(RG401_OUTER / RG401_INNER)
    k = int(round(solver.waveform.delay / DT))
    z_meas = v[k] / run.port_current["1"][k]
    print(f"  before the echo |V − V_inc| ≤ {leak:.2%} of the pulse; V/I = {z_meas:.2f} Ω, Z0 = {z0:.2f} Ω")
    assert leak < 0.01
    RECORDER.record(
        f"em-coax-echo-z0-{eps_r}",
        value=z_meas,
        reference=z0,
        error=(z_meas - z0) / z0,
        unknowns=solver.ndof,
        order=2,
    )
