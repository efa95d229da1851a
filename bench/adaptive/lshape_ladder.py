"""bench/adaptive: the re-entrant corner (L-shaped prism, exact r^(2/3) sin(2θ/3) data, order 1), adaptive
passes against uniform refinement of the same 42-unknown start, each with its exact energy-norm error and
cumulative CPU time; then, per target error, the first pass / level within it and the two ratios.
Usage (from engine/): OMP_NUM_THREADS=1 ../.venv/bin/python ../bench/adaptive/lshape_ladder.py  (≈ 5 min)."""

import sys
import time

import numpy as np
from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.refine import refine_model
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.adaptive_meshes import l_shape_mesh

sys.path.insert(0, "tests")  # the exact solution lives with the validation tests
from adaptive.lshape_exact import ExactLShape

family = ExactLShape()
start = model_from_mesh_data(l_shape_mesh(2))
seen = []
t0 = time.process_time()


class Rec:
    analysis_type = family.analysis_type
    check = family.check
    supports_adaptive = family.supports_adaptive

    def solve(self, model, cfg, progress):
        sol = family.solve(model, cfg, progress)
        seen.append(
            (
                sol.quantities["unknowns"],
                sol.quantities["energy_error"],
                time.process_time() - t0,
            )
        )
        return sol


run_adaptive(
    Rec(),
    start,
    {
        "adaptiveRefinement": {
            "tolerance": 0.001,
            "maxPasses": 30,
            "maxUnknowns": 400000,
        }
    },
    SILENT,
    ReconstructedSurface(),
)
print("adaptive:", [(n, f"{e:.3e}", f"{t:.2f}s") for n, e, t in seen])
uni = []
model = start
t0 = time.process_time()
for lvl in range(6):
    sol = family.solve(model, {}, SILENT)
    uni.append(
        (
            sol.quantities["unknowns"],
            sol.quantities["energy_error"],
            time.process_time() - t0,
        )
    )
    print("uniform level", lvl, uni[-1], flush=True)
    if sol.quantities["unknowns"] > 300000:
        break
    model = refine_model(model, np.ones(model.nt, dtype=bool))
for target in (0.1, 0.05, 0.03):
    a = next((x for x in seen if x[1] <= target), None)
    u = next((x for x in uni if x[1] <= target), None)
    print(
        f"target energy-norm error {target}: adaptive {a}, uniform {u}",
        f"unknowns ratio {a[0] / u[0]:.3f} time ratio {a[2] / u[2]:.3f}"
        if a and u
        else "",
    )
