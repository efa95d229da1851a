"""bench/adaptive: WR-90 with an inductive post (r = 2 mm, centred), uploaded as tetrahedra in mm, order 2.
Adaptive passes from a coarse start at 10 GHz until max |ΔS| < 0.02, then the 8–12 GHz sweep on the final
mesh; the reference is a fine fixed mesh (maxh 3 mm, curvature-resolved post). Prints the passes, unknowns,
time and |S21 − S21_ref| at 10 GHz. Run from engine/: PYTHONPATH=. ../.venv/bin/python -u ../bench/adaptive/wr90_post.py
"""

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from fieldline_engine.commands.solve import run_solve
from fieldline_engine.testing.adaptive_meshes import wr90_post_mesh_data
from fieldline_engine.testing.meshes import faces_on_plane

LENGTH = 40.0


def run(mesh, adaptive: dict | None, points: int):
    config = {
        "analysisType": "em",
        "frequency": 10e9,
        "meshOrder": 2,
        "useWavePorts": True,
        "wavePorts": [
            {"portID": 1, "faces": faces_on_plane(mesh, 2, 0.0), "mode": "TE10"},
            {"portID": 2, "faces": faces_on_plane(mesh, 2, LENGTH), "mode": "TE10", "amplitude": 0},
        ],
        "calculateSParameters": True,
        "sParamFreqMin": 8e9 if points > 1 else 10e9,
        "sParamFreqMax": 12e9 if points > 1 else 10e9,
        "sParamNumPoints": points,
    }
    if adaptive:
        config["adaptiveRefinement"] = adaptive
    job = Path(tempfile.mkdtemp())
    (job / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
    started = time.perf_counter()
    run_solve(job)
    seconds = time.perf_counter() - started
    r = json.loads((job / "results.json").read_text())
    sp = r["s_parameters"]
    s21 = {f: complex(*m[1][0]) for f, m in zip(sp["frequencies"], sp["matrix"], strict=True)}
    return r, s21, seconds


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "both"
    if which in ("both", "adaptive"):
        r, s21, seconds = run(wr90_post_mesh_data(10.0, curvature_safety=0.5), {"frequency": 10e9}, 3)
        for p in r["solver_info"]["adaptive_passes"]:
            print("pass", p, flush=True)
        print("adaptive:", r["solver_info"]["adaptive_refinement"]["message"], flush=True)
        print(f"adaptive: {seconds:.1f} s total, S21 {s21}", flush=True)
    if which in ("both", "reference"):
        r, s21, seconds = run(wr90_post_mesh_data(3.0), None, 1)
        print(f"reference: {r['solver_info']['matrix_size']} unknowns, {seconds:.1f} s, S21 {s21}", flush=True)


if __name__ == "__main__":
    main()
