"""Adaptive refinement of a time-domain EM run (validation): every pass runs the whole transient; the error of the
history is the largest over sampled instants of each element's flux-recovery indicator of E (by ε) and H (by μ),
each instant's divided by its energy; the passes stop when the followed figure changes by less than the
tolerance. A WR-90 cavity 22.86 × 10.16 × 50 mm rung by a modulated current pulse at its centre, started from
2 × 1 × 4 boxes (48 tetrahedra): the ringing frequency at a probe against TE101 = c/2·√(1/a² + 1/d²). An empty
WR-90 section between two TE10 ports, followed on S over the pulse's band (HFSS's max |ΔS|): S21 against
e^{−jβL}."""

import cmath
import json
import math
import time

import numpy as np
from validation.recorder import RECORDER

from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.em.em_analyses import EmTimeAnalysis
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

A, B, D = 22.86e-3, 10.16e-3, 50e-3
C0 = 299_792_458.0
TE101 = C0 / 2 * math.sqrt(1 / A**2 + 1 / D**2)  # 7.209968 GHz


def config_for(adaptive, end_time=12e-9):
    """A 7.2 GHz pulse (τ = 0.3 ns: its band leaves TE103 out; TE102 has a node at the centre) from a current
    in the middle fifth of the cavity along y; Newmark at 10 ps (14 steps a period, warping undone)."""
    return {
        "analysisType": "em-time",
        "meshOrder": 2,
        "timeStep": 10e-12,
        "endTime": end_time,
        "pulseShape": "modulated_gaussian",
        "pulseWidth": 0.3e-9,
        "pulseFrequency": 7.2e9,
        "volumeCurrents": [
            {"density": [0, 1.0, 0], "boxMin": [0.4 * A, 0, 0.4 * D], "boxMax": [0.6 * A, B, 0.6 * D]}
        ],
        "probePoints": [[0.45 * A, 0.5 * B, 0.45 * D]],
        **({"adaptiveRefinement": adaptive} if adaptive else {}),
    }


def test_cavity_ringdown_adaptive_passes_converge_to_te101():
    started = time.perf_counter()
    mesh = box_mesh((A, B, D), (2, 1, 4))
    config = config_for(
        {"tolerance": 0.001, "quantity": "resonance_frequency_Hz", "maxPasses": 5, "maxUnknowns": 60000}
    )
    outcome = run_adaptive(
        EmTimeAnalysis(), model_from_mesh_data(mesh), config, SILENT, ReconstructedSurface()
    )
    sol = outcome.solution
    info = sol.solver_info["adaptive_refinement"]
    passes = sol.solver_info["adaptive_passes"]
    for p in passes:
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, ringing {p['quantity'] / 1e9:.6f} GHz "
            f"({p['quantity'] / TE101 - 1:+.4%} vs TE101 {TE101 / 1e9:.6f} GHz), estimated error "
            f"{p['estimated_error']:.4f}, change {p['change']}, {p['time_s']:.1f} s"
        )
    print(f"adaptive: {info['message']}")
    value = sol.quantities["resonance_frequency_Hz"]
    error = value / TE101 - 1
    RECORDER.record(
        "adaptive-em-time-cavity-te101",
        value=value,
        reference=TE101,
        error=error,
        unknowns=passes[-1]["unknowns"],
        order=2,
        seconds=time.perf_counter() - started,
        convergence=[(p["unknowns"], abs(p["quantity"] / TE101 - 1)) for p in passes],
    )
    assert (
        info["quantity"] == "resonance_frequency_Hz"
        and info["converged"]
        and info["stopped_by"] == "tolerance"
    )
    assert len(passes) >= 3 and all(p["estimated_error"] is not None for p in passes)
    # The passes make the answer better, and the estimate falls with them.
    assert abs(passes[0]["quantity"] / TE101 - 1) > 5 * abs(error)
    assert abs(error) < 0.0005
    assert passes[-1]["estimated_error"] < 0.5 * passes[0]["estimated_error"]
    # The final pass is a whole run on the final mesh: its history and the indicator sized for that mesh.
    assert len(sol.extras["time_domain_info"]["times"]) == 1201
    assert sol.field("error_indicator").size == outcome.model.nt == passes[-1]["elements"]


def test_a_run_without_adaptive_refinement_has_no_estimate_but_reports_its_figures():
    mesh = box_mesh((A, B, D), (2, 1, 4))
    sol = EmTimeAnalysis().solve(model_from_mesh_data(mesh), config_for(None, end_time=4e-9), SILENT)
    assert sol.error_estimate is None
    q = sol.quantities
    assert q["peak_energy_J"] > 0 and q["peak_electric_field_V_per_m"] > 0
    assert abs(q["resonance_frequency_Hz"] / TE101 - 1) < 0.05


def test_a_time_domain_adaptive_job_writes_the_final_mesh_its_history_and_the_error_indicator(tmp_path):
    """Through `solve` (the job path), following the default figure on the estimated error: the results describe
    the final mesh; the signals and the error indicator are those of the final pass."""
    from fieldline_engine.commands.solve import run_solve

    mesh = box_mesh((A, B, D), (2, 1, 4))
    config = config_for({"tolerance": 0.01, "maxPasses": 2, "maxUnknowns": 20000}, end_time=4e-9)
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": {**mesh, "units": "m"}, "config": config}))
    run_solve(tmp_path)
    r = json.loads((tmp_path / "results.json").read_text())
    info = r["solver_info"]["adaptive_refinement"]
    passes = r["solver_info"]["adaptive_passes"]
    print(
        f"em-time job: {[(p['unknowns'], p['estimated_error'], p['quantity']) for p in passes]}; {info['message']}"
    )
    assert len(passes) == 2 and info["stopped_by"] == "max_passes" and not info["converged"]
    assert info["rule"] == "estimated error" and info["quantity"] == "resonance_frequency_Hz"
    assert all(p["estimated_error"] is not None and p["quantity"] is not None for p in passes)
    nt = len(r["tetrahedra"])
    assert nt == passes[-1]["elements"] > len(mesh["tetrahedra"])
    indicator = np.asarray(r["fields"]["error_indicator"]["data"])
    assert len(indicator) == nt and r["fields"]["error_indicator"]["location"] == "cell"
    assert abs(float(np.sum(indicator**2)) - 1) < 1e-9
    assert r["quantities"]["resonance_frequency_Hz"] == passes[-1]["quantity"]


GUIDE_L, F0, DT = 30e-3, 10e9, 5e-12


def guide_config(mesh, adaptive):
    """A 10 GHz pulse (τ = 0.5 ns) launched by port 1 into an empty WR-90 guide 30 mm long, port 2 a matched load;
    S at 9.5, 10 and 10.5 GHz; Newmark at 5 ps (20 steps a period)."""
    return {
        "analysisType": "em-time",
        "meshOrder": 2,
        "timeStep": DT,
        "endTime": 6e-9,
        "pulseShape": "modulated_gaussian",
        "pulseWidth": 0.5e-9,
        "pulseDelay": 2.5e-9,
        "pulseFrequency": F0,
        "useWavePorts": True,
        "calculateSParameters": True,
        "sParamFreqMin": 9.5e9,
        "sParamFreqMax": 10.5e9,
        "sParamNumPoints": 3,
        "wavePorts": [
            {"portID": 1, "faces": faces_on_plane(mesh, 2, 0.0), "mode": "TE10", "amplitude": 1},
            {"portID": 2, "faces": faces_on_plane(mesh, 2, GUIDE_L), "mode": "TE10", "amplitude": 0},
        ],
        **({"adaptiveRefinement": adaptive} if adaptive else {}),
    }


def s21_at_carrier(sol) -> complex:
    response = sol.extras["time_domain_info"]["frequency_response"]
    return complex(*response["s_parameters"]["column"]["S21"][response["frequencies"].index(F0)])


def test_waveguide_pulse_adaptive_passes_stop_on_max_delta_s_and_s21_nears_the_closed_form():
    """Newmark's S at f is the space-discrete model's at f̃ = tan(πfΔt)/(πΔt) (docs/transient.md): the closed
    form is taken there, so what is left is the mesh's error, which the passes remove."""
    started = time.perf_counter()
    mesh = box_mesh((A, B, GUIDE_L), (2, 1, 3))
    warped = math.tan(math.pi * F0 * DT) / (math.pi * DT)
    exact = cmath.exp(-1j * math.sqrt((2 * math.pi * warped / C0) ** 2 - (math.pi / A) ** 2) * GUIDE_L)
    start = EmTimeAnalysis().solve(model_from_mesh_data(mesh), guide_config(mesh, None), SILENT)
    adaptive = {"quantity": "S", "maxPasses": 6, "maxUnknowns": 60000}  # tolerance: HFSS's 0.02
    outcome = run_adaptive(
        EmTimeAnalysis(),
        model_from_mesh_data(mesh),
        guide_config(mesh, adaptive),
        SILENT,
        ReconstructedSurface(),
    )
    sol = outcome.solution
    info = sol.solver_info["adaptive_refinement"]
    passes = sol.solver_info["adaptive_passes"]
    for p in passes:
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, max |ΔS| {p['change']}, estimated "
            f"error {p['estimated_error']:.4f}, {p['time_s']:.1f} s"
        )
    first, final = s21_at_carrier(start), s21_at_carrier(sol)
    phase = math.degrees(cmath.phase(exact))
    for name, s21 in (("start mesh", first), ("final mesh", final)):
        print(
            f"{name}: S21(10 GHz) {abs(s21):.4f}∠{math.degrees(cmath.phase(s21)):+.2f}° vs e^(−jβL) 1∠{phase:+.2f}° "
            f"(|ΔS21| {abs(s21 - exact):.4f})"
        )
    print(f"adaptive: {info['message']}")
    RECORDER.record(
        "adaptive-em-time-waveguide-s21",
        value=abs(final - exact),
        reference=0.0,
        error=abs(final - exact),
        unknowns=passes[-1]["unknowns"],
        order=2,
        seconds=time.perf_counter() - started,
        convergence=[
            (passes[0]["unknowns"], abs(first - exact)),
            (passes[-1]["unknowns"], abs(final - exact)),
        ],
    )
    assert info["quantity"] == "S" and info["tolerance"] == 0.02
    assert info["converged"] and info["stopped_by"] == "tolerance" and passes[-1]["change"] < 0.02
    assert len(passes) >= 3
    assert abs(first - exact) > 3 * abs(final - exact) and abs(final - exact) < 0.02
