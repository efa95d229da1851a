"""Adaptive refinement of a plate with a hole under tension (validation): from a coarse STEP-meshed start,
the passes follow the peak stress to Howland's stress concentration within 1 % with fewer unknowns than
uniform refinement of the same start needs. New vertices on the hole go onto the CAD cylinder, those on
its rims onto the CAD circles (a rim vertex left on a flat face's chord cuts a notch whose stress grows
without bound)."""

import time

import numpy as np
from netgen import occ
from validation.recorder import RECORDER

from fieldline_engine.core.adaptive.cad_surface import CadSurface
from fieldline_engine.core.adaptive.refine import refine_model
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.structural.analysis import StructuralAnalysis
from fieldline_engine.testing.step_jobs import StepJob

W, T = 100.0, 2.0  # mm: plate width and (half) thickness, thin: plane stress
D = 0.2 * W  # hole diameter
LENGTH = 2.5 * W
SIGMA = 10e6  # Pa, gross-section tension
HOWLAND = 3.14  # K_t = σ_max / σ_gross for d/W = 0.2 (Howland 1930, via Peterson)
WITHIN = 0.01


def _plate_job(folder) -> StepJob:
    """An eighth of the plate by symmetry (x = 0, y = 0 and the mid-plane z = 0), the load on x = L/2."""
    plate = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(LENGTH / 2, W / 2, T)) - occ.Cylinder(
        occ.Pnt(0, 0, 0), occ.Z, D / 2, T
    )
    return StepJob(folder, [("Plate", plate)], "mm", {"meshMaxSize": 16.0, "meshElementsPerCircle": 12})


def _config(job: StepJob) -> dict:
    on = job.faces_where
    return {
        "analysisType": "structural",
        "youngsModulus": 200e9,
        "poissonRatio": 0.3,
        "meshOrder": 2,
        "useCurvedGeometry": True,
        "displacementConditions": [
            {"faces": on(lambda p: np.allclose(p[:, 0], 0)), "displacement": [0, None, None]},
            {"faces": on(lambda p: np.allclose(p[:, 1], 0)), "displacement": [None, 0, None]},
            {"faces": on(lambda p: np.allclose(p[:, 2], 0)), "displacement": [None, None, 0]},
        ],
        "forceLoads": [
            {
                "faces": on(lambda p: np.allclose(p[:, 0], LENGTH / 2)),
                "force": [SIGMA * (W / 2 * 1e-3) * (T * 1e-3), 0, 0],
            }
        ],
    }


def _first_within(points: list[tuple[int, float]]) -> int | None:
    """Unknowns of the first point from which the error stays within 1 %."""
    for i, (n, _) in enumerate(points):
        if all(abs(e) <= WITHIN for _, e in points[i:]):
            return n
    return None


def test_plate_with_a_hole_adaptive_reaches_howland_with_fewer_unknowns_than_uniform(tmp_path):
    started = time.perf_counter()
    job = _plate_job(tmp_path)
    config = _config(job)
    r = job.solve(
        "adaptive",
        {
            **config,
            "adaptiveRefinement": {
                "tolerance": 0.005,
                "quantity": "max_von_mises_Pa",
                "maxPasses": 10,
                "maxUnknowns": 80000,
            },
        },
    )
    adaptive_seconds = time.perf_counter() - started
    info = r["solver_info"]["adaptive_refinement"]
    passes = r["solver_info"]["adaptive_passes"]
    adaptive = [(p["unknowns"], p["quantity"] / SIGMA / HOWLAND - 1) for p in passes]
    for p, (_, e) in zip(passes, adaptive, strict=True):
        print(
            f"adaptive pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, "
            f"K_t {p['quantity'] / SIGMA:.4f} ({e:+.2%}), estimated error {p['estimated_error']:.4f}"
        )
    print(f"adaptive: {info['message']} ({adaptive_seconds:.1f} s)")
    assert info["converged"] and info["stopped_by"] == "tolerance", info

    # Uniform refinement of the same start (every tetrahedron halved, new vertices on the same CAD faces).
    uniform_started = time.perf_counter()
    model = model_from_mesh_data(job.mesh)
    surface = CadSurface([job.step], "mm", np.asarray(job.mesh["face_patches"]))
    uniform: list[tuple[int, float]] = []
    for level in range(3):
        sol = StructuralAnalysis().solve(model, config, SILENT)
        kt = sol.quantities["max_von_mises_Pa"] / SIGMA
        uniform.append((sol.solver_info["matrix_size"], kt / HOWLAND - 1))
        print(
            f"uniform level {level}: {model.nt} tets, {uniform[-1][0]} unknowns, K_t {kt:.4f} ({uniform[-1][1]:+.2%})"
        )
        if abs(uniform[-1][1]) <= WITHIN:
            break
        model = refine_model(model, np.ones(model.nt, dtype=bool), surface)
    uniform_seconds = time.perf_counter() - uniform_started

    adaptive_n, uniform_n = _first_within(adaptive), _first_within(uniform)
    kt_final = passes[-1]["quantity"] / SIGMA
    # Time to 1 %: the passes up to the first within it (each pass's solve, estimate and refinement) against
    # the uniform levels up to theirs (the loop above stops there). Printed, not asserted: a shared machine's
    # load moves it (bench/adaptive/README.md).
    reached = next(i for i, (_, e) in enumerate(adaptive) if abs(e) <= WITHIN)
    adaptive_to_1pc = sum(p["time_s"] for p in passes[: reached + 1])
    print(
        f"time to K_t within 1 %: adaptive {adaptive_to_1pc:.2f} s (passes 1–{reached + 1}), uniform "
        f"{uniform_seconds:.2f} s ({len(uniform)} levels): ratio {adaptive_to_1pc / uniform_seconds:.2f}"
    )
    print(
        f"[validation] plate with a hole, K_t within 1 % of Howland's {HOWLAND}: adaptive at {adaptive_n} unknowns, "
        f"uniform refinement at {uniform_n} unknowns (ratio {adaptive_n / uniform_n:.2f}); final adaptive K_t "
        f"{kt_final:.4f}; {adaptive_seconds:.1f} s adaptive (all passes), {uniform_seconds:.1f} s uniform"
    )
    RECORDER.record(
        "adaptive-plate-hole-howland",
        value=kt_final,
        reference=HOWLAND,
        error=kt_final / HOWLAND - 1,
        unknowns=passes[-1]["unknowns"],
        order=2,
        seconds=time.perf_counter() - started,
        convergence=[(n, abs(e)) for n, e in adaptive],
    )
    assert adaptive_n is not None and uniform_n is not None
    assert adaptive_n < uniform_n
    # No vertex inside the hole: those on its rims went onto the CAD circles, not the flat faces' chords.
    radii = np.hypot(np.asarray(r["vertices"])[:, 0], np.asarray(r["vertices"])[:, 1])
    assert radii.min() > D / 2 * (1 - 1e-9), radii.min()
    # The refinement went to the hole: the smallest elements are at its edge, the error indicator is a field.
    assert r["fields"]["error_indicator"]["location"] == "cell"
    v, tets = np.asarray(r["vertices"]), np.asarray(r["tetrahedra"])
    centres = v[tets].mean(axis=1)
    edge_lengths = np.linalg.norm(v[tets[:, 1]] - v[tets[:, 0]], axis=1)
    near_hole = np.hypot(centres[:, 0], centres[:, 1]) < 0.6 * D
    far = centres[:, 0] > 0.35 * LENGTH
    assert np.median(edge_lengths[near_hole]) < 0.5 * np.median(edge_lengths[far])
