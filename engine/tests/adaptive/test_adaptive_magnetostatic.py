"""Adaptive refinement of a magnetostatic run: the estimator recovers B and weighs it by 1/μ; a wound toroid
uploaded without air (the run adds the air around it each pass) is refined where B jumps and bends, and its
inductance stays at the closed form μ N² h ln(b/a) / 2π while the estimated error falls."""

import math

import ngsolve as ng
import numpy as np
from netgen import occ
from netgen.occ import OCCGeometry

from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.em.constants import MU0
from fieldline_engine.em.magnetics.analysis import MagnetostaticAnalysis
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

A, B, H, T = 0.02, 0.03, 0.01, 0.002
TURNS, MU_R = 100, 1000.0


def ring(r1, r2, z1, z2):
    return occ.Cylinder(occ.Pnt(0, 0, z1), occ.Z, r=r2, h=z2 - z1) - occ.Cylinder(
        occ.Pnt(0, 0, z1), occ.Z, r=r1, h=z2 - z1
    )


def test_toroid_passes_lower_the_estimated_error_and_keep_the_inductance():
    core = ring(A, B, -H / 2, H / 2)
    core.mat("core")
    winding = ring(A - T, B + T, -H / 2 - T, H / 2 + T) - core
    winding.mat("winding")
    mesh = ng.Mesh(OCCGeometry(occ.Glue([core, winding])).GenerateMesh(maxh=0.005))
    data, _ = mesh_data_from_ngsolve(mesh, "mm")
    names = list(mesh.GetMaterials())
    data["tetrahedron_regions"] = [names.index(el.mat) for el in mesh.Elements(ng.VOL)]
    data["region_names"] = names
    model = model_from_mesh_data(data)
    config = {
        "analysisType": "magnetostatic",
        "meshOrder": 2,
        "coils": [{"name": "w", "region": "winding", "turns": TURNS, "current": 1.0, "wraps": "core"}],
        "bodyMaterials": [{"region": "core", "relativePermeability": MU_R}],
        "adaptiveRefinement": {"tolerance": 0.001, "maxPasses": 3, "maxUnknowns": 400000},
    }
    outcome = run_adaptive(MagnetostaticAnalysis(), model, config, SILENT, ReconstructedSurface())
    sol = outcome.solution
    passes = sol.solver_info["adaptive_passes"]
    exact = MU0 * MU_R * TURNS**2 * H * math.log(B / A) / (2 * math.pi)
    inductance = sol.quantities["inductance_H"]
    for p in passes:
        print(
            f"pass {p['pass']}: {p['elements']} device tets, {p['unknowns']} unknowns, estimated error "
            f"{p['estimated_error']:.4f}, energy {p['quantity']:.6g} J"
        )
    print(
        f"[magnetics] adaptive toroid L = {inductance:.6g} H vs {exact:.6g} H ({inductance / exact - 1:+.2%})"
    )
    assert len(passes) == 3 and sol.solver_info["adaptive_refinement"]["stopped_by"] == "max_passes"
    assert passes[-1]["estimated_error"] < 0.8 * passes[0]["estimated_error"]
    assert abs(inductance / exact - 1) < 0.02
    assert outcome.model.nt == passes[-1]["elements"] > model.nt
    indicator = sol.field("error_indicator")
    assert indicator.location == "cell" and len(indicator.values) == outcome.model.nt
    assert np.isclose(np.sum(indicator.values**2), 1.0)
    # the winding and the core stay what they were: regions carried over to every refined tetrahedron
    assert set(np.unique(outcome.model.regions).tolist()) == {0, 1}
