"""The full S-matrix of a time-domain run by port-by-port excitation (one pulse per port, one factorization):
a matched air-filled coax two-port, S21 = S12 = e^{−jωL/c}, S11 = S22 = 0.

Against the frequency-domain solver on the same mesh the columns agree at Newmark's warped frequency
f̃ = tan(πfΔt)/(πΔt) (see test_pulse_sparameters.py); through the engine command the matrix lands in
`s_parameters` in the sweep's shape and in sparameters.s2p, which a standard reader gets back exactly."""

import cmath
import json
import math
import time

import numpy as np
import pytest

from fieldline_engine.em.constants import C0
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.fullwave.sweep import run_sweep
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.em.transient.smatrix import (
    full_matrix_wanted,
    ports_to_excite,
    s_matrix,
    why_no_matrix,
)
from fieldline_engine.em.transient.solver import TransientSolver
from fieldline_engine.em.transient.waveforms import Waveform
from fieldline_engine.testing.rf_meshes import coax_mesh
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

L = 0.02
FREQS = [2e9, 5e9, 8e9, 11e9]
SWEEP = {"calculateSParameters": True, "sParamFreqMin": 2e9, "sParamFreqMax": 11e9, "sParamNumPoints": 4}


def as_matrices(sp):
    return np.array([[[complex(*v) for v in row] for row in m] for m in sp["matrix"]])


def test_port_by_port_matrix_matches_frequency_domain():
    mesh = coax_mesh(L, maxh=0.006, curve_order=2, curvature_safety=1.0)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TEM", 1.0, amplitude=1.0 - k) for k in range(2)]
    wf = Waveform("gaussian", 30e-12, 150e-12, 0.0)
    started = time.perf_counter()
    td = TransientSolver(mesh, uniform_media(1.0), 2, "default", wf, ports=ports)
    dt = 2e-12
    steps = int(round((wf.delay + L / C0 + 8 * wf.width) / dt))
    first = td.run("newmark", dt, steps, energy_stride=steps, record_currents=False)
    one_port_s = time.perf_counter() - started
    second = td.run("newmark", dt, steps, energy_stride=steps, drive_port="2", record_currents=False)
    two_port_s = time.perf_counter() - started
    assert first.driven_ports == ["1"] and second.driven_ports == ["2"]
    assert td.system.factorizations == 1  # the second excitation reused the factorization

    notes: list[str] = []
    sp = s_matrix(td, {"1": first, "2": second}, SWEEP, notes)
    assert sp is not None and sp["port_ids"] == ["1", "2"] and sp["frequencies"] == FREQS
    s_td = as_matrices(sp)

    fd = FullwaveSolver(mesh, uniform_media(1.0), 2, "default", ports)
    worst = {"reciprocity": 0.0, "match": 0.0, "s11_s22": 0.0, "fd": 0.0}
    for k, f in enumerate(FREQS):
        s = s_td[k]
        warped = fd.solve(math.tan(math.pi * f * dt) / (math.pi * dt)).s
        exact = cmath.exp(-2j * math.pi * f * L / C0)
        recip, diff = abs(s[0, 1] - s[1, 0]), float(np.max(np.abs(s - warped)))
        worst["reciprocity"] = max(worst["reciprocity"], recip)
        worst["match"] = max(worst["match"], abs(s[0, 0]), abs(s[1, 1]))
        worst["s11_s22"] = max(worst["s11_s22"], abs(s[0, 0] - s[1, 1]))
        worst["fd"] = max(worst["fd"], diff)
        print(
            f"{f / 1e9:4.1f} GHz: S21 {abs(s[1, 0]):.4f}∠{math.degrees(cmath.phase(s[1, 0])):+8.3f}°, "
            f"S12 {abs(s[0, 1]):.4f}∠{math.degrees(cmath.phase(s[0, 1])):+8.3f}° (|S12−S21| {recip:.1e}), "
            f"|S11| {abs(s[0, 0]):.4f}, |S22| {abs(s[1, 1]):.4f}; max |S − S_fd(f̃)| {diff:.1e}; "
            f"exact ∠S21 {math.degrees(cmath.phase(exact)):+8.3f}°"
        )
        assert diff < 2e-3
        assert recip < 1e-3
        assert abs(s[0, 0]) < 0.03 and abs(s[1, 1]) < 0.03
    setup = td.seconds_setup
    print(
        f"worst: |S12−S21| {worst['reciprocity']:.2e}, max |S11|,|S22| {worst['match']:.2e}, "
        f"|S11−S22| {worst['s11_s22']:.2e}, max |S − S_fd(f̃)| {worst['fd']:.2e}; {td.ndof} unknowns, "
        f"{steps} steps per excitation"
    )
    print(
        f"cost: setup (assembly + ports) {setup:.2f} s, one-port run {one_port_s:.2f} s "
        f"(stepping {first.seconds_stepping:.2f} s), two-port matrix {two_port_s:.2f} s "
        f"(second excitation {two_port_s - one_port_s:.2f} s, stepping {second.seconds_stepping:.2f} s); "
        f"ratio {two_port_s / one_port_s:.2f}"
    )
    assert worst["s11_s22"] < 0.02

    # Both excitations as two columns of one time loop (one block substitution per step): the same records.
    started = time.perf_counter()
    block = td.run("newmark", dt, steps, energy_stride=steps, record_currents=False, also_drive=["2"])
    block_s = time.perf_counter() - started
    together = block.port_drive_runs["2"]
    dev = max(
        float(np.max(np.abs(run_a.port_modal[q] - run_b.port_modal[q])) / np.max(np.abs(run_b.port_modal[q])))
        for run_a, run_b in ((block, first), (together, second))
        for q in ("1", "2")
    )
    print(
        f"block of 2 columns: {block_s:.2f} s (stepping {block.seconds_stepping:.2f} s) against "
        f"{first.seconds_stepping + second.seconds_stepping:.2f} s stepping one by one; max relative "
        f"difference of the port records {dev:.1e}"
    )
    assert together.driven_ports == ["2"] and dev < 1e-9

    # power_wave: renormalised from each port's Z_PV to 50 Ω from the same two runs, as the sweep does it.
    renorm = s_matrix(td, {"1": first, "2": second}, {**SWEEP, "sParamMethod": "power_wave"}, [])
    assert renorm is not None and renorm["normalization"] == "renormalized to 50 ohm"
    warped = [math.tan(math.pi * f * dt) / (math.pi * dt) for f in FREQS]
    sweep, _ = run_sweep(fd, warped, warped[0], "power_wave", 50.0)
    z_td = np.array([[z["z_pv_ohm"] for z in row] for row in renorm["line_impedances_ohm"]])
    z_fd = np.array([[z["z_pv_ohm"] for z in row] for row in sweep["line_impedances_ohm"]])
    s_50, s_fd = as_matrices(renorm), as_matrices(sweep)
    z_err, diff = float(np.max(np.abs(z_td / z_fd - 1))), float(np.max(np.abs(s_50 - s_fd)))
    print(
        f"power_wave to 50 Ω: Z_PV {z_td.mean():.3f} Ω (frequency domain {z_fd.mean():.3f} Ω, rel. diff "
        f"{z_err:.1e}; 60·ln(b/a) = 72.19 Ω), max |S11| {np.max(np.abs(s_50[:, 0, 0])):.3f}, "
        f"max |S − S_fd(f̃)| {diff:.1e}"
    )
    assert z_err < 2e-3 and diff < 3e-3


@pytest.fixture(scope="module")
def matched_coax():
    mesh = coax_mesh(L, maxh=0.006, curvature_safety=1.0)
    return mesh_data_from_ngsolve(mesh, "mm")


def test_two_port_job_writes_full_matrix_and_touchstone(engine, tmp_path, matched_coax):
    mesh_data, faces = matched_coax
    config = {
        "analysisType": "em-time",
        "meshOrder": 2,
        "timeStep": 4e-12,
        "endTime": 0.4e-9,
        "pulseShape": "gaussian",
        "pulseWidth": 30e-12,
        "useWavePorts": True,
        "wavePorts": [
            {"portID": 1, "faces": faces["port_0"], "mode": "TEM"},
            {"portID": 2, "faces": faces["port_1"], "mode": "TEM", "amplitude": 0},
        ],
        **SWEEP,
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": mesh_data, "config": config}))
    events = engine("solve", tmp_path)
    assert events[-1]["event"] == "done", events[-1]
    messages = [e.get("message", "") for e in events if e["event"] == "progress"]
    # both excitations step in one time loop (two columns of the state, one substitution per step)
    assert any(m.startswith("Configured excitation + 1 port excitation: time step 100/100") for m in messages)
    percents = [e["percent"] for e in events if e["event"] == "progress"]
    assert percents == sorted(percents)
    res = json.loads((tmp_path / "results.json").read_text())
    sp = res["s_parameters"]
    assert sp["port_ids"] == ["1", "2"] and sp["frequencies"] == FREQS and sp["method"] == "wave_port"
    assert sp["performance"] == {**sp["performance"], "runs": 2, "factorizations": 1}
    perf = res["time_domain_info"]["performance"]
    assert perf["excitations_per_step"] == 2 and perf["factor"] in ("cholmod", "ngsolve sparsecholesky")
    s = as_matrices(sp)
    # The configured run is column 1: it agrees with the single-column response of time_domain_info.
    column = res["time_domain_info"]["frequency_response"]["s_parameters"]["column"]
    assert np.allclose(s[:, 1, 0], [complex(*v) for v in column["S21"]], atol=1e-14)
    recip = float(np.max(np.abs(s[:, 0, 1] - s[:, 1, 0])))
    exact = np.exp(-2j * np.pi * np.array(FREQS) * L / C0)
    phase_err = float(np.max(np.abs(np.angle(s[:, 1, 0] / exact, deg=True))))
    print(
        f"job (uploaded straight-sided coax, Δt 4 ps): |S12−S21| ≤ {recip:.1e}, max |S11| "
        f"{np.max(np.abs(s[:, 0, 0])):.3f}, max |S22| {np.max(np.abs(s[:, 1, 1])):.3f}, "
        f"∠S21 vs e^(−jωL/c) ≤ {phase_err:.2f}°"
    )
    assert recip < 1e-3 and np.max(np.abs(s[:, 0, 0])) < 0.06 and np.max(np.abs(s[:, 1, 1])) < 0.06
    # Straight-sided tetrahedra: the analytic TEM profile on the polygonal port face is ~1 % off the
    # discrete mode, so the ports are not perfectly matched (cf. test_transient_job.py).
    assert np.max(np.abs(np.abs(s[:, 1, 0]) - 1)) < 0.04
    # Touchstone from the same writer as the frequency-domain sweep; a standard reader gets it back.
    skrf = pytest.importorskip("skrf")
    net = skrf.Network(str(tmp_path / "sparameters.s2p"))
    assert net.nports == 2 and list(net.f) == FREQS
    assert np.allclose(net.s, s, atol=1e-11)
    csv = (tmp_path / "sparameters.csv").read_text().splitlines()
    assert len(csv) == 1 + len(FREQS)


def test_matrix_is_asked_for_only_with_a_pulse_and_ports_as_the_only_sources():
    mesh = coax_mesh(L, maxh=0.008, curvature_safety=1.0)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TEM", 1.0) for k in range(2)]
    pulse = TransientSolver(
        mesh, uniform_media(1.0), 1, "default", Waveform("gaussian", 30e-12, 150e-12, 0.0), ports
    )
    sine = TransientSolver(mesh, uniform_media(1.0), 1, "default", Waveform("sinusoidal", 0, 0, 5e9), ports)
    assert full_matrix_wanted(SWEEP, pulse) and why_no_matrix(SWEEP, pulse) is None
    assert not full_matrix_wanted({}, pulse) and why_no_matrix({}, pulse) is None
    # both ports driven by the configured excitation: every port gets a run of its own (N + 1 runs)
    assert ports_to_excite(pulse) == ["1", "2"]
    assert not full_matrix_wanted(SWEEP, sine)
    note = why_no_matrix(SWEEP, sine)
    print(f"sinusoidal: {note}")
    assert note is not None and "sinusoidal" in note
