"""Vibration validation against closed forms (docs/vibration.md). Each case prints its error."""

import math
import time

import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.vibration.analysis import HarmonicAnalysis, ModalAnalysis

E, NU, RHO = 200e9, 0.3, 7850.0
L, W, H = 1.0, 0.02, 0.02  # slender: L/h = 50
I, A = W * H**3 / 12, W * H
MESH = box_mesh((L, W, H), (50, 2, 2))
CLAMP = faces_on_plane(MESH, 0, 0.0)
TIP = faces_on_plane(MESH, 0, L)


def run(analysis, config):
    started = time.perf_counter()
    sol = analysis.solve(
        model_from_mesh_data(MESH),
        {"meshOrder": 2, "youngsModulus": E, "poissonRatio": NU, "density": RHO, **config},
        SILENT,
    )
    return sol, time.perf_counter() - started


def euler_bernoulli(beta_l: float) -> float:
    return beta_l**2 / (2 * math.pi) * math.sqrt(E * I / (RHO * A * L**4))


report = RECORDER.record_solution


def tip_sweep(f1: float, **damping: float) -> dict:
    """Harmonic sweep 0 … 2·f1 of the clamped beam under 1 N at its tip, probed at the tip."""
    return {
        "analysisType": "harmonic",
        "fixedSupports": [{"faces": CLAMP}],
        "forceLoads": [{"faces": TIP, "force": [0, 0, -1.0]}],
        "harmonicFreqMin": 0.0,
        "harmonicFreqMax": 2 * f1,
        "harmonicNumPoints": 401,
        "modalNumModes": 12,
        "probePoints": [{"name": "tip", "point": [L, W / 2, H / 2]}],
        **damping,
    }


def test_cantilever_bending_frequencies_euler_bernoulli():
    sol, seconds = run(
        ModalAnalysis(), {"analysisType": "modal", "modalNumModes": 6, "fixedSupports": [{"faces": CLAMP}]}
    )
    modes = [m for m in sol.extras["modes"] if not m["rigid_body"]]
    # Square section: each bending mode comes as a pair (y and z); take one of each pair.
    frequencies = [m["frequency"] for m in modes][::2]
    for n, beta_l in enumerate((1.87510407, 4.69409113, 7.85475744)):
        assert (
            report(
                f"vibration-cantilever-mode-{n + 1}", frequencies[n], euler_bernoulli(beta_l), sol, seconds
            )
            < 0.01
        )
    assert sol.solver_info["max_residual"] < 1e-8
    assert sol.animation.axis == "mode" and sol.animation.labels[0].startswith("mode 1 — ")
    # A mode shape is normalised to a largest displacement of 1: no length unit on its legend.
    shape = sol.field("displacement")
    assert shape.unit == "" and np.isclose(np.max(np.linalg.norm(shape.values, axis=1)), 1.0)


def test_free_free_beam_finds_six_rigid_modes_then_the_first_elastic_one():
    sol, seconds = run(ModalAnalysis(), {"analysisType": "modal", "modalNumModes": 2})
    modes = sol.extras["modes"]
    rigid = [m for m in modes if m["rigid_body"]]
    elastic = [m for m in modes if not m["rigid_body"]]
    assert len(rigid) == 6 and len(elastic) == 2
    first = elastic[0]["frequency"]
    worst = max(m["frequency"] for m in rigid) / first
    RECORDER.record(
        "vibration-rigid-modes", value=worst, reference=0.0, error=worst, order=2, seconds=seconds
    )
    assert report("vibration-free-free", first, euler_bernoulli(4.73004074), sol, seconds) < 0.01


def test_effective_mass_fractions_sum_to_at_most_one_and_approach_it():
    few, _ = run(
        ModalAnalysis(), {"analysisType": "modal", "modalNumModes": 2, "fixedSupports": [{"faces": CLAMP}]}
    )
    many, _ = run(
        ModalAnalysis(), {"analysisType": "modal", "modalNumModes": 20, "fixedSupports": [{"faces": CLAMP}]}
    )
    z_few = few.quantities["effective_mass_fraction"]["z"]
    z_many = many.quantities["effective_mass_fraction"]["z"]
    print(
        f"[validation] cantilever effective mass in z: {z_few:.3f} with 2 modes, {z_many:.3f} with 20 (≤ 1, → 1)"
    )
    # One bending mode in z: 0.613 of the mass (Euler–Bernoulli, first cantilever mode).
    RECORDER.record("vibration-effective-mass", value=z_few, reference=0.6131, error=z_few - 0.6131, order=2)
    assert z_few < z_many <= 1.0 and z_many > 0.9


def test_harmonic_peak_at_the_first_mode_with_amplification_one_over_two_zeta():
    zeta = 0.02
    f1 = 16.339  # the mesh's first mode (see the cantilever case)
    config = tip_sweep(f1, dampingRatio=zeta)
    sol, seconds = run(HarmonicAnalysis(), config)
    response = sol.extras["harmonic_response"]
    amp = np.asarray(response["probes"][0]["displacement"]["amplitude"])[:, 2]
    f = np.asarray(response["frequencies"])
    peak = float(f[int(np.argmax(amp))])
    assert report("vibration-harmonic-peak", peak, f1, sol, seconds) < 0.01
    # The tip's response at resonance over its static response: 1/(2ζ) times mode 1's share of the static
    # deflection (0.9707 for a cantilever tip load, Euler–Bernoulli: 1 − Σ_{n≥2} …).
    amplification = float(np.max(amp) / amp[0])
    assert report("vibration-amplification", amplification, 0.9707 / (2 * zeta), sol, seconds) < 0.03
    # Full method (direct solves, mass-proportional damping 2ζω₁M) agrees at the peak.
    full, _ = run(HarmonicAnalysis(), {**config, "harmonicMethod": "full", "harmonicNumPoints": 21})
    amp_full = np.asarray(full.extras["harmonic_response"]["probes"][0]["displacement"]["amplitude"])[:, 2]
    f_full = np.asarray(full.extras["harmonic_response"]["frequencies"])
    ours = np.interp(f_full, f, amp)
    diff = float(np.max(np.abs(ours - amp_full)) / np.max(amp_full))
    print(
        f"[validation] harmonic: mode superposition against the full method, max difference {diff:.2e} of the peak"
    )
    assert diff < 0.02


def test_rayleigh_damping_by_modes_and_full_agree_and_set_the_first_mode_amplification():
    # α and β each give mode 1 half of ζ₁ = 0.02: ζᵢ = α/2ωᵢ + βωᵢ/2.
    f1 = 16.339
    w1 = 2 * math.pi * f1
    alpha, beta = 2 * 0.01 * w1, 2 * 0.01 / w1
    config = tip_sweep(f1, rayleighAlpha=alpha, rayleighBeta=beta)
    sol, seconds = run(HarmonicAnalysis(), config)
    amp = np.asarray(sol.extras["harmonic_response"]["probes"][0]["displacement"]["amplitude"])[:, 2]
    f = np.asarray(sol.extras["harmonic_response"]["frequencies"])
    amplification = float(np.max(amp) / amp[0])
    assert report("vibration-rayleigh-amplification", amplification, 0.9707 / (2 * 0.02), sol, seconds) < 0.03
    # The full method solves with C = αM + βK itself: the modes diagonalise it, so both methods agree.
    full, _ = run(HarmonicAnalysis(), {**config, "harmonicMethod": "full", "harmonicNumPoints": 21})
    amp_full = np.asarray(full.extras["harmonic_response"]["probes"][0]["displacement"]["amplitude"])[:, 2]
    f_full = np.asarray(full.extras["harmonic_response"]["frequencies"])
    diff = float(np.max(np.abs(np.interp(f_full, f, amp) - amp_full)) / np.max(amp_full))
    print(
        f"[validation] Rayleigh damping: mode superposition against the full method, {diff:.2e} of the peak"
    )
    assert diff < 0.02
    with pytest.raises(InvalidInput, match="rayleighBeta must be a finite number, 0 or above"):
        run(HarmonicAnalysis(), {**config, "rayleighBeta": -1e-4})


def test_bad_input_is_refused():
    with pytest.raises(InvalidInput, match="modalNumModes must be between 1 and 50"):
        run(ModalAnalysis(), {"analysisType": "modal", "modalNumModes": 51})
    with pytest.raises(InvalidInput, match="harmonicFreqMin must be below harmonicFreqMax"):
        run(HarmonicAnalysis(), {"analysisType": "harmonic", "harmonicFreqMin": 10, "harmonicFreqMax": 10})
    with pytest.raises(InvalidInput, match="needs supports"):
        run(
            HarmonicAnalysis(),
            {
                "analysisType": "harmonic",
                "harmonicFreqMax": 10,
                "forceLoads": [{"faces": TIP, "force": [0, 0, 1]}],
            },
        )


def test_a_harmonic_probe_outside_the_model_is_left_out_with_a_warning():
    """Not a TypeError from NGSolve (an element id of -1), which is what a run raised before."""
    config = tip_sweep(100.0, dampingRatio=0.02)
    config["harmonicNumPoints"] = 5
    config["probePoints"].append({"name": "off", "point": [L, W / 2, 3 * H]})
    sol, _ = run(HarmonicAnalysis(), config)
    assert (
        f"Probe off at [{L:g}, {W / 2:g}, {3 * H:g}] is outside the model and was left out." in sol.warnings
    )
    assert [p["name"] for p in sol.extras["harmonic_response"]["probes"]] == ["tip"]
