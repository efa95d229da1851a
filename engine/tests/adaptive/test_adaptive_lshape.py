"""Adaptive refinement at a re-entrant corner (validation): the energy-norm error of the exact singular
solution falls at the optimal rate for first-order elements, N^{-1/3}, under adaptive refinement, where
uniform refinement shows the corner-limited rate N^{-2/9} (h^{2/3}). The thermal family runs the same
L-shape through the real job path."""

import json
import time

import numpy as np
from adaptive.lshape_exact import ExactLShape, fitted_rate
from validation.recorder import RECORDER

from fieldline_engine.commands.solve import run_solve
from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.refine import refine_model
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.adaptive_meshes import l_shape_mesh

OPTIMAL_P1_RATE = 1 / 3


def test_lshape_exact_energy_error_optimal_rate_adaptive_corner_limited_uniform():
    started = time.perf_counter()
    family = ExactLShape()
    start = model_from_mesh_data(l_shape_mesh(2))
    config = {"adaptiveRefinement": {"tolerance": 0.01, "maxPasses": 9, "maxUnknowns": 12000}}
    adaptive = _errors_along(family, start, config)
    uniform = []
    model = start
    for _ in range(4):
        sol = family.solve(model, {}, SILENT)
        uniform.append((sol.quantities["unknowns"], sol.quantities["energy_error"]))
        model = refine_model(model, np.ones(model.nt, dtype=bool))
    rate_adaptive = fitted_rate(adaptive[-4:])
    rate_uniform = fitted_rate(uniform[-3:])
    print(
        f"[validation] L-shape exact r^(2/3) sin(2θ/3): energy-error rate adaptive {rate_adaptive:.3f} "
        f"(optimal {OPTIMAL_P1_RATE:.3f}), uniform {rate_uniform:.3f} (corner-limited 0.222); "
        f"adaptive {adaptive[-1][1]:.3e} at {adaptive[-1][0]} unknowns, uniform {uniform[-1][1]:.3e} at {uniform[-1][0]}"
    )
    RECORDER.record(
        "adaptive-lshape-electrostatic-rate",
        value=rate_adaptive,
        reference=OPTIMAL_P1_RATE,
        error=max(0.0, OPTIMAL_P1_RATE - rate_adaptive),
        unknowns=adaptive[-1][0],
        order=1,
        seconds=time.perf_counter() - started,
        convergence=adaptive,
    )
    assert rate_uniform < 0.27  # the corner limits uniform refinement
    assert rate_adaptive > rate_uniform + 0.05


def _errors_along(family, start, config):
    """(unknowns, exact energy error) of each adaptive pass, recorded as the loop runs them."""
    seen = []

    class Recording:
        analysis_type = family.analysis_type
        check = family.check
        supports_adaptive = family.supports_adaptive

        def solve(self, model, cfg, progress):
            sol = family.solve(model, cfg, progress)
            seen.append((sol.quantities["unknowns"], sol.quantities["energy_error"]))
            return sol

    run_adaptive(Recording(), start, config, SILENT, ReconstructedSurface())
    return seen


def test_lshape_thermal_family_adaptive_job(tmp_path):
    """The thermal family through `solve`: 300 K on the re-entrant faces, 400 K on the far ones. The passes
    converge, the estimated error falls faster than uniform refinement allows, the fixed temperatures hold
    on every refined face, and the results carry the final mesh and the error indicator."""
    started = time.perf_counter()
    mesh = l_shape_mesh(2)
    v, f = np.asarray(mesh["vertices"]), np.asarray(mesh["faces"])
    c = v[f].mean(axis=1)
    reentrant = [
        i + 1 for i, x in enumerate(c) if (abs(x[1]) < 1e-12 and x[0] > 0) or (abs(x[0]) < 1e-12 and x[1] < 0)
    ]
    far = [i + 1 for i, x in enumerate(c) if abs(x[0] + 1) < 1e-12 or abs(x[1] - 1) < 1e-12]
    config = {
        "analysisType": "thermal",
        "temperatureConditions": [
            {"faces": reentrant, "temperature": 300},
            {"faces": far, "temperature": 400},
        ],
        "adaptiveRefinement": {"tolerance": 0.03, "maxPasses": 10, "maxUnknowns": 20000},
    }
    (tmp_path / "job.json").write_text(json.dumps({"mesh_data": {**mesh, "units": "m"}, "config": config}))
    run_solve(tmp_path)
    r = json.loads((tmp_path / "results.json").read_text())
    info = r["solver_info"]["adaptive_refinement"]
    passes = r["solver_info"]["adaptive_passes"]
    points = [(p["unknowns"], p["estimated_error"]) for p in passes]
    rate = fitted_rate(points[-4:])
    print(
        f"[validation] L-shape thermal (real family): {len(passes)} passes, estimated error "
        f"{passes[0]['estimated_error']:.3f} → {passes[-1]['estimated_error']:.4f}, rate {rate:.3f}; {info['message']}"
    )
    assert info["converged"] and info["stopped_by"] == "tolerance"
    assert set(passes[0]) >= {"pass", "unknowns", "elements", "estimated_error", "quantity", "time_s"}
    RECORDER.record(
        "adaptive-lshape-thermal-rate",
        value=rate,
        reference=OPTIMAL_P1_RATE,
        error=max(0.0, OPTIMAL_P1_RATE - rate),
        unknowns=passes[-1]["unknowns"],
        order=1,
        seconds=time.perf_counter() - started,
        convergence=points,
    )
    # The final mesh is what the results describe; the fixed temperatures hold on every refined face.
    verts = np.asarray(r["vertices"])
    faces = np.asarray(r["faces"])
    face_ids = np.asarray(r["face_ids"])
    assert len(faces) == len(face_ids) > len(f)
    temperature = np.asarray(r["fields"]["temperature"]["data"])
    on_reentrant = np.unique(faces[np.isin(face_ids, reentrant)])
    on_far = np.unique(faces[np.isin(face_ids, far)])
    assert np.allclose(temperature[on_reentrant], 300.0) and np.allclose(temperature[on_far], 400.0)
    assert len(r["tetrahedra"]) == passes[-1]["elements"] == len(r["fields"]["error_indicator"]["data"])
    assert r["fields"]["error_indicator"]["location"] == "cell"
    # Refinement concentrates at the corner: elements touching the corner line are much smaller.
    tets = np.asarray(r["tetrahedra"])
    centres = verts[tets].mean(axis=1)
    vols = (
        np.abs(
            np.einsum(
                "ij,ij->i",
                np.cross(verts[tets[:, 1]] - verts[tets[:, 0]], verts[tets[:, 2]] - verts[tets[:, 0]]),
                verts[tets[:, 3]] - verts[tets[:, 0]],
            )
        )
        / 6
    )
    near = np.hypot(centres[:, 0], centres[:, 1]) < 0.1
    far_away = np.hypot(centres[:, 0], centres[:, 1]) > 0.7
    assert vols[near].mean() < 0.05 * vols[far_away].mean()
