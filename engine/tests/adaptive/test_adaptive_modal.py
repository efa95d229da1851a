"""Adaptive refinement of natural frequencies (validation): the modal family's estimator recovers the strain
of each requested mode; the passes refine where the modes' errors are (the clamped root) and stop when the
requested frequencies change by less than the tolerance. A slender steel cantilever (L/h = 50) from a coarse
start: the first two bending frequencies against Euler–Bernoulli."""

import math
import time

import numpy as np
from validation.recorder import RECORDER

from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.meshes import box_mesh, faces_on_plane
from fieldline_engine.vibration.analysis import ModalAnalysis

E, NU, RHO = 200e9, 0.3, 7850.0
L, W, H = 1.0, 0.02, 0.02
I, AREA = W * H**3 / 12, W * H
BETA_L = (1.87510407, 4.69409113)


def euler_bernoulli(beta_l: float) -> float:
    return beta_l**2 / (2 * math.pi) * math.sqrt(E * I / (RHO * AREA * L**4))


def test_cantilever_frequencies_adaptive_passes_stop_on_their_change_and_match_euler_bernoulli():
    started = time.perf_counter()
    mesh = box_mesh((L, W, H), (8, 1, 1))
    config = {
        "analysisType": "modal",
        "meshOrder": 2,
        "youngsModulus": E,
        "poissonRatio": NU,
        "density": RHO,
        "modalNumModes": 4,  # the first two bending pairs (y and z)
        "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
        "adaptiveRefinement": {"tolerance": 0.002, "maxPasses": 8, "maxUnknowns": 40000},
    }
    outcome = run_adaptive(
        ModalAnalysis(), model_from_mesh_data(mesh), config, SILENT, ReconstructedSurface()
    )
    sol = outcome.solution
    info = sol.solver_info["adaptive_refinement"]
    passes = sol.solver_info["adaptive_passes"]
    exact = [euler_bernoulli(b) for b in BETA_L]
    for p in passes:
        f = p["quantity"]
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, f {f[0]:.4f} / {f[2]:.4f} Hz "
            f"({f[0] / exact[0] - 1:+.3%}, {f[2] / exact[1] - 1:+.3%}), estimated error {p['estimated_error']:.4f}, "
            f"change {p['change']}"
        )
    print(f"adaptive: {info['message']}")
    modes = [m for m in sol.extras["modes"] if not m["rigid_body"]]
    f1, f2 = modes[0]["frequency"], modes[2]["frequency"]
    seconds = time.perf_counter() - started
    convergence = [(p["unknowns"], abs(p["quantity"][0] / exact[0] - 1)) for p in passes]
    RECORDER.record(
        "adaptive-modal-cantilever-f1",
        value=f1,
        reference=exact[0],
        error=f1 / exact[0] - 1,
        unknowns=passes[-1]["unknowns"],
        order=2,
        seconds=seconds,
        convergence=convergence,
    )
    RECORDER.record(
        "adaptive-modal-cantilever-f2",
        value=f2,
        reference=exact[1],
        error=f2 / exact[1] - 1,
        unknowns=passes[-1]["unknowns"],
        order=2,
        seconds=seconds,
    )
    # The rule: the requested frequencies' largest relative change, below the tolerance at the last pass only.
    assert info["quantity"] == "frequencies_Hz" and info["rule"] == "quantity change"
    assert info["converged"] and info["stopped_by"] == "tolerance"
    assert passes[-1]["change"] < 0.002 and all(p["change"] >= 0.002 for p in passes[1:-1])
    assert len(passes) >= 3 and all(p["estimated_error"] is not None for p in passes)
    # Refinement went to the root, where the bending strain is largest and the clamp meets Poisson's contraction.
    v, tets = outcome.model.vertices, outcome.model.tetrahedra
    x = v[tets].mean(axis=1)[:, 0]
    assert np.sum(x < 0.25 * L) > 2 * np.sum(x > 0.75 * L)
    assert sol.field("error_indicator").location == "cell"


def test_a_modal_run_without_adaptive_refinement_gives_no_estimate():
    mesh = box_mesh((L, W, H), (8, 1, 1))
    sol = ModalAnalysis().solve(
        model_from_mesh_data(mesh),
        {
            "meshOrder": 2,
            "youngsModulus": E,
            "poissonRatio": NU,
            "density": RHO,
            "modalNumModes": 2,
            "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
        },
        SILENT,
    )
    assert sol.error_estimate is None
