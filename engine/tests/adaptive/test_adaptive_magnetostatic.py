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
    # its field is in the core: the added air holds almost none of the error, and nothing is warned of
    assert sol.solver_info["air_region"]["estimated_error_share"] < 0.01
    assert not any("in the air added" in w for w in sol.warnings)
    # the winding and the core stay what they were: regions carried over to every refined tetrahedron
    assert set(np.unique(outcome.model.regions).tolist()) == {0, 1}


def _bare_magnet():
    """A 10 mm NdFeB cube magnetised along z, uploaded without air: its field is all in the air the run adds."""
    magnet = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(10, 10, 10))
    magnet.mat("magnet")
    mesh = ng.Mesh(OCCGeometry(magnet).GenerateMesh(maxh=5.0))
    data, _ = mesh_data_from_ngsolve(mesh, "mm")
    data["tetrahedron_regions"] = [0] * mesh.ne
    data["region_names"] = ["magnet"]
    return model_from_mesh_data(data)


def test_the_added_air_s_share_of_the_error_is_reported_and_warned_of():
    """Issue 40: the air the run adds round a bare device is meshed again each pass, graded from the refined
    device's outside triangles, and not marked itself. Around a bare magnet, whose field is all in that air,
    the passes still lower the estimated error (through the finer outside), but most of it stays in the air:
    the run reports the share (solver_info.air_region.estimated_error_share) and warns, naming the remedy
    (model the air, airPadding 0). Measured: folding the air's error onto the outside did worse (see
    em/adaptive_estimates.py), so it is not done."""
    model = _bare_magnet()
    config = {
        "analysisType": "magnetostatic",
        "meshOrder": 2,
        "bodyMaterials": [{"region": "magnet", "relativePermeability": 1.05, "remanence": [0, 0, 1.3]}],
        "adaptiveRefinement": {"tolerance": 1e-4, "maxPasses": 3, "maxUnknowns": 400000},
    }
    outcome = run_adaptive(MagnetostaticAnalysis(), model, config, SILENT, ReconstructedSurface())
    sol = outcome.solution
    passes = sol.solver_info["adaptive_passes"]
    share = sol.solver_info["air_region"]["estimated_error_share"]
    for p in passes:
        print(
            f"[adaptive] bare magnet: pass {p['pass']}: {p['elements']} device tets, {p['unknowns']} unknowns, "
            f"estimated error {p['estimated_error']:.4f}"
        )
    print(f"[adaptive] bare magnet: the added air holds {share:.0%} of the last pass's estimated error²")
    assert passes[-1]["estimated_error"] < 0.6 * passes[0]["estimated_error"]
    assert share > 0.5
    assert any("of the estimated error is in the air added" in w for w in sol.warnings)
