"""One pulse run gives a broadband S21 that agrees with the frequency-domain solver on the same mesh:
a matched PTFE coax line (TEM ports at both ends), S21 = e^{−jβL} (|S21| = 1, ∠ = −ω√εr·L/c).

Newmark's average-acceleration rule is the trapezoidal rule, i.e. the bilinear transform of the
semi-discrete system: a run at frequency f behaves exactly like the frequency-domain model at the warped
f̃ = tan(πfΔt)/(πΔt). Against f̃ the two solvers must agree to the accuracy of the transforms; against f
they differ by the scheme's O((ωΔt)²) phase error, which is printed too."""

import cmath
import math

import numpy as np

from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.em.transient.frequency_response import frequency_response
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import RG401_EPS_R, coax_mesh

L = 0.02
FREQS = [2e9, 5e9, 8e9, 11e9]


def test_pulse_s21_matches_frequency_domain():
    mesh = coax_mesh(L, maxh=0.006, curve_order=2, curvature_safety=1.0)
    ports = [
        build_wave_port(mesh, f"port_{k}", str(k + 1), "TEM", RG401_EPS_R, amplitude=1.0 - k)
        for k in range(2)
    ]
    wf = Waveform("gaussian", 30e-12, 150e-12, 0.0)
    td = TransientSolver(mesh, uniform_media(RG401_EPS_R), 2, "default", wf, ports=ports)
    dt = 2e-12
    steps = int(round((wf.delay + L * math.sqrt(RG401_EPS_R) / C0 + 8 * wf.width) / dt))
    run = td.run("newmark", dt, steps, energy_stride=50)
    config = {
        "calculateSParameters": True,
        "sParamFreqMin": FREQS[0],
        "sParamFreqMax": FREQS[-1],
        "sParamNumPoints": 4,
    }
    response = frequency_response(td, run, config)
    column = response["s_parameters"]["column"]
    s21_td = np.array([complex(*x) for x in column["S21"]])
    s11_td = np.array([complex(*x) for x in column["S11"]])

    fd = FullwaveSolver(mesh, uniform_media(RG401_EPS_R), 2, "default", ports)
    worst = 0.0
    for k, f in enumerate(FREQS):
        s = fd.solve(f).s[1, 0]
        warped = fd.solve(math.tan(math.pi * f * dt) / (math.pi * dt)).s[1, 0]
        exact = cmath.exp(-2j * math.pi * f * math.sqrt(RG401_EPS_R) * L / C0)
        diff, diff_warped = abs(s21_td[k] - s), abs(s21_td[k] - warped)
        worst = max(worst, diff_warped)
        print(
            f"{f / 1e9:4.1f} GHz: pulse S21 {abs(s21_td[k]):.4f}∠{math.degrees(cmath.phase(s21_td[k])):+8.3f}°, "
            f"frequency domain {abs(s):.4f}∠{math.degrees(cmath.phase(s)):+8.3f}° (|Δ| {diff:.1e}), at f̃ "
            f"∠{math.degrees(cmath.phase(warped)):+8.3f}° (|Δ| {diff_warped:.1e}); exact ∠{math.degrees(cmath.phase(exact)):+8.3f}°; "
            f"|S11| {abs(s11_td[k]):.3f}"
        )
        assert diff_warped < 2e-3
        assert diff < 0.02
        assert abs(s11_td[k]) < 0.03
    print(
        f"worst |S21(pulse) − S21(frequency domain at f̃)| = {worst:.2e}; {td.ndof} unknowns, {run.steps} steps"
    )
