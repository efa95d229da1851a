"""Adaptive refinement of a harmonic response (validation): the passes solve the adaptation frequency alone,
estimate the error of the complex displacement by flux recovery of its strain (real and imaginary parts), and
stop when the end's amplitude there changes by less than the tolerance; the sweep then runs once on the final
mesh. A steel bar clamped at one end and pushed axially at the other below its first axial resonance, from
4 × 1 × 1 boxes: the end amplitude against the closed form u(L) = F L/(EA) · tan(kL)/(kL)."""

import math
import time

import numpy as np
import pytest
from validation.recorder import RECORDER

from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.vibration.analysis import HarmonicAnalysis

# ν = 0: the clamp holds no Poisson contraction back, so the 3D bar is the 1D rod exactly.
E, NU, RHO = 200e9, 0.0, 7850.0
L, W = 1.0, 0.05
AREA = W * W
FORCE = 1000.0
C = math.sqrt(E / RHO)
F_AXIAL = C / (4 * L)  # first axial resonance, 1262 Hz


def end_amplitude(frequency: float) -> float:
    """Rod clamped at x = 0, force F e^{jωt} at x = L: u(x) = F sin(kx) / (EA k cos(kL)), k = ω/c."""
    k = 2 * math.pi * frequency / C
    return FORCE * L / (E * AREA) * math.tan(k * L) / (k * L)


def test_bar_axial_response_adaptive_passes_converge_to_the_closed_form_and_sweep_on_the_final_mesh():
    started = time.perf_counter()
    mesh = box_mesh((L, W, W), (4, 1, 1))
    adapt_at = 0.9 * F_AXIAL
    config = {
        "analysisType": "harmonic",
        "meshOrder": 1,
        "youngsModulus": E,
        "poissonRatio": NU,
        "density": RHO,
        "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
        "forceLoads": [{"faces": faces_on_plane(mesh, 0, L), "force": [FORCE, 0, 0]}],
        "harmonicFreqMin": 0.2 * F_AXIAL,
        "harmonicFreqMax": adapt_at,  # the adaptation frequency: the band's highest
        "harmonicNumPoints": 4,
        "harmonicMethod": "full",  # exact for the mesh: no truncation of the mode superposition
        "modalNumModes": 1,
        "dampingRatio": 0.0001,
        "probePoints": [{"name": "end", "point": [L, W / 2, W / 2]}],
        "adaptiveRefinement": {
            "tolerance": 0.002,
            "quantity": "peak_displacement_m",
            "maxPasses": 8,
            "maxUnknowns": 20000,
        },
    }
    outcome = run_adaptive(
        HarmonicAnalysis(), model_from_mesh_data(mesh), config, SILENT, ReconstructedSurface()
    )
    sol = outcome.solution
    info = sol.solver_info["adaptive_refinement"]
    passes = sol.solver_info["adaptive_passes"]
    exact = end_amplitude(adapt_at)
    for p in passes:
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, |u(L)| at {adapt_at:.1f} Hz "
            f"{p['quantity']:.6e} m ({p['quantity'] / exact - 1:+.3%} vs closed form), estimated error "
            f"{p['estimated_error']:.4f}, change {p['change']}"
        )
    print(f"adaptive: {info['message']}")
    # The sweep on the final mesh: every point against the closed form.
    response = sol.extras["harmonic_response"]
    frequencies = np.asarray(response["frequencies"])
    end = np.asarray(response["probes"][0]["displacement"]["amplitude"])[:, 0]
    closed = np.array([end_amplitude(f) for f in frequencies])
    sweep_error = float(np.max(np.abs(end / closed - 1)))
    print(f"sweep on the final mesh ({len(frequencies)} points): worst |u(L)| error {sweep_error:.3%}")
    seconds = time.perf_counter() - started
    RECORDER.record(
        "adaptive-harmonic-bar-axial",
        value=float(end[-1]),
        reference=exact,
        error=float(end[-1] / exact - 1),
        unknowns=passes[-1]["unknowns"],
        order=1,
        seconds=seconds,
        convergence=[(p["unknowns"], abs(p["quantity"] / exact - 1)) for p in passes],
    )
    assert info["quantity"] == "peak_displacement_m" and info["rule"] == "quantity change"
    assert info["converged"] and info["stopped_by"] == "tolerance"
    assert len(passes) >= 2 and passes[-1]["change"] < 0.002
    assert all(p["estimated_error"] is not None for p in passes)
    assert passes[-1]["estimated_error"] < passes[0]["estimated_error"]
    # The start mesh is off by more than the final one, which is within 0.5 % of the closed form.
    assert abs(passes[0]["quantity"] / exact - 1) > abs(passes[-1]["quantity"] / exact - 1)
    assert abs(end[-1] / exact - 1) < 0.005 and sweep_error < 0.005
    # The sweep ran on the final mesh (every requested point), the passes at the adaptation frequency alone.
    assert len(frequencies) == 4 and np.isclose(frequencies[-1], adapt_at)
    # the final solve is the sweep; the results still say where the passes ran
    assert sol.solver_info["adaptation_frequency_Hz"] == adapt_at
    assert sol.field("error_indicator").location == "cell"
    assert sol.field("error_indicator").size == outcome.model.nt


def test_a_harmonic_adaptive_job_writes_the_final_mesh_the_sweep_and_the_error_indicator(tmp_path):
    """Through `solve` (the job path), the amplitude over the vertices followed at a chosen adaptation
    frequency: the results carry the final mesh, the sweep solved on it and the error indicator."""
    import json

    from fieldline_engine.commands.solve import run_solve

    mesh = box_mesh((L, W, W), (4, 1, 1))
    config = {
        "analysisType": "harmonic",
        "meshOrder": 2,
        "youngsModulus": E,
        "poissonRatio": NU,
        "density": RHO,
        "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
        "forceLoads": [{"faces": faces_on_plane(mesh, 0, L), "force": [FORCE, 0, 0]}],
        "harmonicFreqMin": 0.2 * F_AXIAL,
        "harmonicFreqMax": 0.8 * F_AXIAL,
        "harmonicNumPoints": 5,
        # full: an axial load's response needs every axial mode (superposition of a few truncates it)
        "harmonicMethod": "full",
        "modalNumModes": 1,
        "adaptiveRefinement": {
            "quantity": "max_displacement_amplitude_m",
            "frequency": 0.5 * F_AXIAL,
            "maxPasses": 2,
            "maxUnknowns": 20000,
        },
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": {**mesh, "units": "m"}, "config": config}))
    run_solve(tmp_path)
    r = json.loads((tmp_path / "results.json").read_text())
    info = r["solver_info"]["adaptive_refinement"]
    passes = r["solver_info"]["adaptive_passes"]
    print(f"harmonic job: {[(p['unknowns'], p['quantity']) for p in passes]}; {info['message']}")
    assert len(passes) == 2 and info["quantity"] == "max_displacement_amplitude_m"
    # the passes' figure is the amplitude at the adaptation frequency (0.5 f): the rod's closed form
    assert passes[-1]["quantity"] == pytest.approx(end_amplitude(0.5 * F_AXIAL), rel=0.01)
    nt = len(r["tetrahedra"])
    assert nt == passes[-1]["elements"] > len(mesh["tetrahedra"])
    assert len(r["fields"]["error_indicator"]["data"]) == nt
    assert len(r["fields"]["displacement"]["data"]) == len(r["vertices"])
    assert len(r["harmonic_response"]["frequencies"]) == 5
