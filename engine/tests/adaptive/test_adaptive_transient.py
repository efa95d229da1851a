"""Adaptive refinement of a transient run (validation): every pass runs the whole transient; the error of
the history is the largest over the saved frames of each element's flux-recovery indicator (each frame's
divided by its energy), so the mesh serves the front at every instant; the passes stop when the followed
figure changes by less than the tolerance. A steel bar whose end is stepped to a new temperature, long enough
to be semi-infinite over the run: the heat it has taken in, against Q = 2 k ΔT A √(t/πα)."""

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
from fieldline_engine.thermal.analysis import ThermalTimeAnalysis

K, RHO, CP = 50.0, 7850.0, 500.0
ALPHA = K / (RHO * CP)
L, W = 0.2, 0.01
T0, TS, END = 300.0, 400.0, 60.0  # √(αt) = 27.6 mm: the far end (200 mm) stays at T0 to 1e-12


def heat_taken_in(t: float) -> float:
    """Semi-infinite solid, surface stepped from T0 to Ts: Q(t) = 2 k (Ts − T0) A √(t / (π α))."""
    return 2 * K * (TS - T0) * W * W * math.sqrt(t / (math.pi * ALPHA))


def config_for(mesh, adaptive):
    return {
        "analysisType": "thermal-time",
        "meshOrder": 1,
        "density": RHO,
        "heatCapacity": CP,
        "thermalConductivity": K,
        "initialTemperature": T0,
        "timeStep": END / 240,
        "endTime": END,
        "timeScheme": "newmark",
        "animationFrames": 24,
        "temperatureConditions": [{"faces": faces_on_plane(mesh, 0, 0.0), "temperature": TS}],
        **({"adaptiveRefinement": adaptive} if adaptive else {}),
    }


def test_semi_infinite_bar_heat_intake_adaptive_passes_converge_to_the_closed_form():
    started = time.perf_counter()
    mesh = box_mesh((L, W, W), (4, 1, 1))
    config = config_for(
        mesh, {"tolerance": 0.003, "quantity": "energy_stored_J", "maxPasses": 10, "maxUnknowns": 40000}
    )
    outcome = run_adaptive(
        ThermalTimeAnalysis(), model_from_mesh_data(mesh), config, SILENT, ReconstructedSurface()
    )
    sol = outcome.solution
    info = sol.solver_info["adaptive_refinement"]
    passes = sol.solver_info["adaptive_passes"]
    exact = heat_taken_in(END)
    for p in passes:
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, Q({END:g} s) {p['quantity']:.2f} J "
            f"({p['quantity'] / exact - 1:+.3%} vs 2kΔTA√(t/πα) = {exact:.2f} J), estimated error "
            f"{p['estimated_error']:.4f}, change {p['change']}"
        )
    print(f"adaptive: {info['message']}")
    value = sol.quantities["energy_stored_J"]
    seconds = time.perf_counter() - started
    RECORDER.record(
        "adaptive-thermal-transient-semi-infinite",
        value=value,
        reference=exact,
        error=value / exact - 1,
        unknowns=passes[-1]["unknowns"],
        order=1,
        seconds=seconds,
        convergence=[(p["unknowns"], abs(p["quantity"] / exact - 1)) for p in passes],
    )
    assert info["quantity"] == "energy_stored_J" and info["converged"] and info["stopped_by"] == "tolerance"
    assert len(passes) >= 3 and all(p["estimated_error"] is not None for p in passes)
    assert abs(passes[0]["quantity"] / exact - 1) > 3 * abs(value / exact - 1)
    assert abs(value / exact - 1) < 0.01
    # Refinement gathered where the front passed (the heated end), not at the far end it never reached.
    x = outcome.model.vertices[outcome.model.tetrahedra].mean(axis=1)[:, 0]
    assert np.sum(x < 0.25 * L) > 4 * np.sum(x > 0.75 * L)
    # The final run is a full transient on the final mesh: its history and frames are there.
    assert len(sol.extras["thermal_history"]["times"]) == 241 and sol.animation is not None
    assert sol.field("error_indicator").size == outcome.model.nt


def test_the_peak_temperature_of_a_transient_is_a_figure_the_passes_may_follow():
    mesh = box_mesh((L, W, W), (4, 1, 1))
    sol = ThermalTimeAnalysis().solve(model_from_mesh_data(mesh), config_for(mesh, None), SILENT)
    assert sol.error_estimate is None
    assert abs(sol.quantities["peak_temperature_K"] - TS) < 1e-9


def test_a_transient_adaptive_job_writes_the_final_mesh_its_history_and_the_error_indicator(tmp_path):
    """Through `solve` (the job path): the results describe the final mesh, the fixed end holds on every
    refined face, the frames and the error indicator are sized for that mesh."""
    import json

    from fieldline_engine.commands.solve import run_solve

    mesh = box_mesh((L, W, W), (4, 1, 1))
    config = config_for(mesh, {"tolerance": 0.01, "maxPasses": 3, "maxUnknowns": 20000})
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": {**mesh, "units": "m"}, "config": config}))
    run_solve(tmp_path)
    r = json.loads((tmp_path / "results.json").read_text())
    info = r["solver_info"]["adaptive_refinement"]
    passes = r["solver_info"]["adaptive_passes"]
    print(f"transient job: {[(p['unknowns'], p['estimated_error']) for p in passes]}; {info['message']}")
    assert len(passes) == 3 and info["stopped_by"] == "max_passes" and not info["converged"]
    assert all(p["estimated_error"] is not None and p["quantity"] is not None for p in passes)
    nv, nt = len(r["vertices"]), len(r["tetrahedra"])
    assert nt == passes[-1]["elements"] > len(mesh["tetrahedra"])
    assert len(r["fields"]["error_indicator"]["data"]) == nt
    assert r["fields"]["error_indicator"]["location"] == "cell"
    temperature = np.asarray(r["fields"]["temperature"]["data"])
    assert len(temperature) == nv
    heated = np.unique(np.asarray(r["faces"])[np.isin(r["face_ids"], faces_on_plane(mesh, 0, 0.0))])
    assert np.allclose(temperature[heated], TS)
    assert r["quantities"]["peak_temperature_K"] == pytest.approx(TS)
