"""bench/adaptive: WR-90 with an inductive post (r = 2 mm, centred), order 2, 10 GHz.

- `adaptive`: the STEP meshed by the engine (14 mm elements, 5 per circle: 272 tetrahedra), adaptive passes at
  10 GHz until max |ΔS| < 0.02 with new boundary vertices on the CAD post, then the 9–10 GHz sweep on the final
  mesh (the validation test engine/tests/adaptive/test_adaptive_wr90_post.py runs the same).
- `reference`: a fine fixed mesh uploaded as tetrahedra (Netgen maxh 3 mm, post resolved by curvature); ORDER=3
  in the environment for the order-3 check of the reference.
Run from engine/: PYTHONPATH=. ../.venv/bin/python -u ../bench/adaptive/wr90_post.py [adaptive|reference]
"""

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from fieldline_engine.commands.solve import run_solve
from fieldline_engine.testing.adaptive_meshes import wr90_post_mesh_data
from fieldline_engine.testing.meshes import faces_on_plane
from fieldline_engine.testing.step_jobs import StepJob

A, B, LENGTH, RADIUS = 22.86, 10.16, 40.0, 2.0


def config(mesh, adaptive: bool, order: int = 2) -> dict:
    out = {
        "analysisType": "em",
        "frequency": 10e9,
        "meshOrder": order,
        "useWavePorts": True,
        "wavePorts": [
            {"portID": 1, "faces": faces_on_plane(mesh, 2, 0.0), "mode": "TE10"},
            {
                "portID": 2,
                "faces": faces_on_plane(mesh, 2, LENGTH),
                "mode": "TE10",
                "amplitude": 0,
            },
        ],
        "calculateSParameters": True,
        "sParamFreqMin": 9e9 if adaptive else 10e9,
        "sParamFreqMax": 10e9,
        "sParamNumPoints": 3 if adaptive else 1,
    }
    if adaptive:
        out["adaptiveRefinement"] = {
            "frequency": 10e9,
            "maxPasses": 6,
            "maxUnknowns": 60000,
        }
    return out


def s21_at_10ghz(results: dict) -> complex:
    sp = results["s_parameters"]
    return complex(*sp["matrix"][sp["frequencies"].index(10e9)][1][0])


def adaptive() -> None:
    from netgen import occ

    guide = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(A, B, LENGTH)) - occ.Cylinder(
        occ.Pnt(A / 2, -1, LENGTH / 2), occ.Y, r=RADIUS, h=B + 2
    )
    started = time.perf_counter()
    job = StepJob(
        Path(tempfile.mkdtemp()),
        [("Air", guide)],
        "mm",
        {"meshMaxSize": 14.0, "meshElementsPerCircle": 5},
    )
    r = job.solve("adaptive", config(job.mesh, True))
    seconds = time.perf_counter() - started
    for p in r["solver_info"]["adaptive_passes"]:
        print("pass", p, flush=True)
    print("adaptive:", r["solver_info"]["adaptive_refinement"]["message"], flush=True)
    print(
        f"adaptive: {seconds:.1f} s (meshing, passes and sweep), S21(10 GHz) {s21_at_10ghz(r):.5f}",
        flush=True,
    )


def reference() -> None:
    order = int(os.environ.get("ORDER", "2"))
    mesh = wr90_post_mesh_data(3.0)
    job = Path(tempfile.mkdtemp())
    (job / "job.json").write_text(
        json.dumps({"mesh_data": mesh, "config": config(mesh, False, order)})
    )
    started = time.perf_counter()
    run_solve(job)
    r = json.loads((job / "results.json").read_text())
    print(
        f"reference (order {order}): {len(mesh['tetrahedra'])} tets, {r['solver_info']['matrix_size']} unknowns, "
        f"{time.perf_counter() - started:.1f} s, S21(10 GHz) {s21_at_10ghz(r):.5f}",
        flush=True,
    )


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "both"
    if which in ("both", "adaptive"):
        adaptive()
    if which in ("both", "reference"):
        reference()
