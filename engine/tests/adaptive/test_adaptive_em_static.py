"""Adaptive refinement through the EM family's static job path: steady conduction in an L-shaped conductor,
where the current crowds the re-entrant corner. The passes follow the resistance until it changes by less
than 0.2 %, refine at the corner, and the estimated error (recovery of E weighted by σ) falls."""

import numpy as np

from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.em.em_analyses import EmAnalysis
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.adaptive_meshes import l_shape_mesh
from fieldline_engine.testing.meshes import faces_on_plane


def test_l_shaped_conductor_resistance_passes_refine_the_corner():
    mesh = {**l_shape_mesh(2, thickness=0.2), "units": "m"}
    config = {
        "analysisType": "em",
        "defaultConductivity": 5.8e7,
        "dirichletFaceConditions": [
            {"faces": faces_on_plane(mesh, 1, -1.0), "voltage": 0.0, "name": "ground"},
            {"faces": faces_on_plane(mesh, 0, 1.0), "voltage": 1e-3, "name": "drive"},
        ],
        "adaptiveRefinement": {"tolerance": 0.002, "quantity": "resistance_ohm", "maxPasses": 10},
    }
    outcome = run_adaptive(EmAnalysis(), model_from_mesh_data(mesh), config, SILENT, ReconstructedSurface())
    sol = outcome.solution
    info = sol.solver_info["adaptive_refinement"]
    passes = sol.solver_info["adaptive_passes"]
    for p in passes:
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, R {p['quantity']:.6e} Ω, "
            f"estimated error {p['estimated_error']:.4f}, change {p['change']}"
        )
    print(info["message"])
    assert info["converged"] and info["stopped_by"] == "tolerance" and len(passes) >= 3
    assert passes[-1]["estimated_error"] < 0.7 * passes[0]["estimated_error"]
    # the corner (the z axis) got the smallest elements
    v, tets = outcome.model.vertices, outcome.model.tetrahedra
    c = v[tets].mean(axis=1)
    r = np.hypot(c[:, 0], c[:, 1])
    edge = np.linalg.norm(v[tets[:, 1]] - v[tets[:, 0]], axis=1)
    assert np.median(edge[r < 0.15]) < 0.5 * np.median(edge[r > 0.7])
    assert sol.field("error_indicator").location == "cell"
