"""Adaptive refinement of cavity eigenmodes (validation): a cylindrical cavity meshed from STEP by the engine,
the em-eigen passes refine by each mode's curl–curl residual and stop when the mode frequencies change by less
than the tolerance; the refined wall stays on the CAD cylinder. TM010 against its closed form."""

import math
import time

import numpy as np
from netgen import occ
from validation.recorder import RECORDER

from fieldline_engine.em.constants import C0
from fieldline_engine.testing.step_jobs import StepJob

RADIUS, HEIGHT = 10.0, 10.0  # mm: TM010 is the lowest mode (h < 2.03 a)
J01 = 2.404825557695773  # first zero of J0
TM010 = J01 * C0 / (2 * math.pi * RADIUS * 1e-3)


def test_cylindrical_cavity_tm010_adaptive_passes_stop_on_the_frequency_change(tmp_path):
    started = time.perf_counter()
    cavity = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=RADIUS, h=HEIGHT)
    job = StepJob(tmp_path, [("Cavity", cavity)], "mm", {"meshMaxSize": 8.0, "meshElementsPerCircle": 6})
    r = job.solve(
        "adaptive",
        {
            "analysisType": "em-eigen",
            "meshOrder": 2,
            "eigenNumModes": 1,
            "useCurvedGeometry": True,
            "adaptiveRefinement": {"tolerance": 0.001, "maxPasses": 6, "maxUnknowns": 80000},
        },
    )
    info = r["solver_info"]["adaptive_refinement"]
    passes = r["solver_info"]["adaptive_passes"]
    for p in passes:
        f = p["quantity"]
        print(
            f"pass {p['pass']}: {p['elements']} tets, {p['unknowns']} unknowns, TM010 {f / 1e9:.5f} GHz "
            f"({f / TM010 - 1:+.3%}), estimated error {p['estimated_error']:.4f}, change {p['change']}"
        )
    print(f"adaptive: {info['message']}")
    f = r["eigenmodes"][0]["frequency_hz"]
    RECORDER.record(
        "adaptive-cavity-tm010",
        value=f,
        reference=TM010,
        error=f / TM010 - 1,
        unknowns=passes[-1]["unknowns"],
        order=2,
        seconds=time.perf_counter() - started,
        convergence=[(p["unknowns"], abs(p["quantity"] / TM010 - 1)) for p in passes],
    )
    assert info["quantity"] == "frequencies_Hz" and info["converged"] and info["stopped_by"] == "tolerance"
    assert passes[-1]["change"] < 0.001 and len(passes) >= 2
    # The passes show flux recovery's estimated error of the mode, and refinement lowers it.
    errors = [p["estimated_error"] for p in passes]
    assert all(0 < e < 1 for e in errors) and errors[-1] < 0.7 * errors[0]
    # The refined wall is the CAD cylinder: no vertex off it (chords would sit inside by up to 1 − cos(π/6)).
    v = np.asarray(r["vertices"])
    on_wall = np.hypot(v[:, 0], v[:, 1]) > 0.9 * RADIUS
    assert np.allclose(
        np.hypot(v[on_wall, 0], v[on_wall, 1])[np.hypot(v[on_wall, 0], v[on_wall, 1]) > RADIUS * 0.999],
        RADIUS,
        rtol=1e-9,
    )
    assert r["fields"]["error_indicator"]["location"] == "cell"
