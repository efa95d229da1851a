"""A point value at a singularity does not converge under refinement, and the passes say so rather than
spending their limits: the max von Mises stress at an L-shaped part's re-entrant corner (stress ~ r^(λ−1),
λ ≈ 0.544) grows by steps that do not shrink. A peak that is only slow to be reached (a fillet's, which rises
by growing steps until the passes refine there) is not called singular."""

from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.stopping import looks_singular
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.structural.analysis import StructuralAnalysis
from fieldline_engine.testing.adaptive_meshes import l_shape_mesh
from fieldline_engine.testing.meshes import faces_on_plane


def test_the_stress_at_a_re_entrant_corner_stops_the_passes_as_a_singularity():
    mesh = {**l_shape_mesh(2, thickness=0.2), "units": "m"}
    config = {
        "analysisType": "structural",
        "meshOrder": 2,
        "youngsModulus": 200e9,
        "poissonRatio": 0.3,
        # the end of one leg held, a shear on the end of the other: the corner at the origin opens
        "displacementConditions": [
            {"faces": faces_on_plane(mesh, 1, -1.0), "displacement": [0, 0, 0]},
        ],
        "forceLoads": [{"faces": faces_on_plane(mesh, 0, 1.0), "force": [0, -1000.0, 0]}],
        "adaptiveRefinement": {"tolerance": 0.001, "quantity": "max_von_mises_Pa", "maxPasses": 12},
    }
    outcome = run_adaptive(
        StructuralAnalysis(), model_from_mesh_data(mesh), config, SILENT, ReconstructedSurface()
    )
    sol = outcome.solution
    info = sol.solver_info["adaptive_refinement"]
    passes = sol.solver_info["adaptive_passes"]
    values = [p["quantity"] for p in passes]
    print("max von Mises per pass:", ", ".join(f"{v / 1e6:.3f} MPa" for v in values), "→", info["stopped_by"])
    x, y, _ = sol.quantities["max_von_mises_location"]
    assert info["stopped_by"] == "singularity" and not info["converged"]
    assert 5 <= len(passes) < 12 and values[-1] > values[1]
    assert any("does not converge" in w for w in sol.warnings)
    assert abs(x) < 0.05 and abs(y) < 0.05  # at the re-entrant corner


def test_growing_steps_that_then_settle_are_not_a_singularity():
    fillet = [
        76.8e6,
        77.7e6,
        80.2e6,
        93.8e6,
    ]  # a bracket's fillet peak while the passes refine their way to it
    assert not looks_singular(fillet)
    assert not looks_singular([*fillet, 94.6e6])
    corner = [10.0, 11.0, 12.2, 13.6, 15.2, 17.0]  # steps growing by a constant ratio: r^(λ−1) as h halves
    assert looks_singular(corner)
    assert not looks_singular([10.0, 12.0, 13.0, 13.5, 13.75])  # halving steps: converging
