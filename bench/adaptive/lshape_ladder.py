"""bench/adaptive: the re-entrant corner (L-shaped prism, exact r^(2/3) sin(2θ/3) data, order 1), adaptive
passes against uniform refinement of the same 42-unknown start, each with its exact energy-norm error and
cumulative CPU time; then, per target error, the first pass / level within it and the two ratios.

Time is what each method must spend, in CPU seconds of this process: adaptive = every pass's mesh, solve and
error estimate, marking and refinement up to and including the pass within the target (its estimate too:
the run needs it to stop); uniform = every level's mesh and solve and the refinements between them (no
estimate: uniform refinement does not use one). The exact error is a measurement: it is timed apart and left
out of both. `counted before` adds it to both and the estimate to uniform too (how this ladder counted until
2026-12-07 22:00 UTC), for comparison. One warm-up solve, estimate and refinement run first so that neither
side pays for first calls. The target 0.10 (1 % of the energy) is measured in REPEATS pairs (adaptive then
uniform, medians); the full ladder (targets 0.05 and 0.03, ≈ 5 min) runs once unless QUICK=1.

FRACTION sets `adaptiveRefinement.fraction` (Dörfler's share of the estimated error marked per pass; the
product's default 0.3, a field of every form's Adaptive refinement group).

Usage (from engine/): OMP_NUM_THREADS=1 PYTHONPATH=. ../.venv/bin/python ../bench/adaptive/lshape_ladder.py
"""

import os
import statistics
import sys
import time

import numpy as np
from fieldline_engine.core.adaptive.loop import run_adaptive
from fieldline_engine.core.adaptive.refine import refine_model
from fieldline_engine.core.adaptive.surface import ReconstructedSurface
from fieldline_engine.core.solution import Solution
from fieldline_engine.em.adaptive_estimates import static_estimate
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.adaptive_meshes import l_shape_mesh

sys.path.insert(0, "tests")  # the exact solution lives with the validation tests
from adaptive.lshape_exact import ExactLShape, energy_error, solve_potential

REPEATS = int(os.environ.get("REPEATS", "5"))
QUICK = os.environ.get("QUICK") == "1"
family = ExactLShape()
start = model_from_mesh_data(l_shape_mesh(2))


class _Enough(Exception):
    pass


class Clock:
    """CPU seconds since start, without the time spent measuring the exact error; and with it."""

    def __init__(self):
        self.t0 = time.process_time()
        self.measuring = 0.0

    def method(self) -> float:
        return time.process_time() - self.t0 - self.measuring

    def counted_before(self) -> float:
        return time.process_time() - self.t0

    def exact_error(self, mesh, sol) -> float:
        started = time.process_time()
        error = energy_error(mesh, sol)
        self.measuring += time.process_time() - started
        return error


def adaptive_ladder(stop_below: float | None, max_unknowns: int = 400_000):
    """[(unknowns, exact error, method s, counted-before s)] per pass, until a pass is within stop_below."""
    seen = []
    clock = Clock()

    class Timed:
        analysis_type = family.analysis_type
        check = family.check
        supports_adaptive = family.supports_adaptive

        def solve(self, model, cfg, progress):
            if stop_below is not None and seen and seen[-1][1] <= stop_below:
                raise _Enough
            mesh, materials, sol = solve_potential(model)
            error = clock.exact_error(mesh, sol)
            out = Solution(quantities={"energy_error": error, "unknowns": sol.ndof})
            out.error_estimate = static_estimate(model, mesh, sol, materials, 1)
            seen.append((sol.ndof, error, clock.method(), clock.counted_before()))
            return out

    config = {
        "adaptiveRefinement": {
            "tolerance": 0.001,
            "fraction": float(os.environ.get("FRACTION", "0.3")),
            "maxPasses": 30,
            "maxUnknowns": max_unknowns,
        }
    }
    try:
        run_adaptive(Timed(), start, config, SILENT, ReconstructedSurface())
    except _Enough:
        pass
    return seen


def uniform_ladder(stop_below: float | None, max_unknowns: int = 300_000):
    levels = []
    clock = Clock()
    model = start
    for _ in range(8):
        mesh, materials, sol = solve_potential(model)
        error = clock.exact_error(mesh, sol)
        levels.append((sol.ndof, error, clock.method(), None))
        # How the ladder counted before: the estimate ran on uniform's levels too.
        started = time.process_time()
        static_estimate(model, mesh, sol, materials, 1)
        clock.measuring += time.process_time() - started  # not uniform's work
        levels[-1] = (*levels[-1][:3], clock.counted_before())
        if (stop_below is not None and error <= stop_below) or sol.ndof > max_unknowns:
            break
        model = refine_model(model, np.ones(model.nt, dtype=bool))
    return levels


def first_within(ladder, target):
    return next((x for x in ladder if x[1] <= target), None)


def show(rows):
    return [(n, f"{e:.4f}", f"{t:.3f}s", f"{c:.3f}s") for n, e, t, c in rows]


# Warm-up: a solve, an estimate and a refinement of each kind, so neither side pays for first calls.
_mesh, _materials, _sol = solve_potential(start)
energy_error(_mesh, _sol)
static_estimate(start, _mesh, _sol, _materials, 1)
refine_model(
    refine_model(start, np.ones(start.nt, dtype=bool)),
    np.zeros(8 * start.nt, dtype=bool),
    ReconstructedSurface(),
)

TARGET = 0.10
ratios = []
for k in range(REPEATS):
    a = adaptive_ladder(TARGET)
    u = uniform_ladder(TARGET)
    fa, fu = first_within(a, TARGET), first_within(u, TARGET)
    ratios.append((fa[0] / fu[0], fa[2] / fu[2], fa[3] / fu[3], fa, fu))
    print(f"pair {k + 1}: adaptive {show(a)}\n        uniform {show(u)}", flush=True)
    print(
        f"        target {TARGET}: adaptive {fa[0]} unknowns {fa[2]:.3f} s, uniform {fu[0]} unknowns "
        f"{fu[2]:.3f} s: unknowns ratio {ratios[-1][0]:.3f}, time ratio {ratios[-1][1]:.3f} "
        f"(counted before: {ratios[-1][2]:.3f})",
        flush=True,
    )
print(
    f"target {TARGET} over {REPEATS} pairs: unknowns ratio {ratios[0][0]:.3f}; time ratio median "
    f"{statistics.median(r[1] for r in ratios):.3f} (min {min(r[1] for r in ratios):.3f}, max "
    f"{max(r[1] for r in ratios):.3f}); adaptive median {statistics.median(r[3][2] for r in ratios):.3f} s, "
    f"uniform median {statistics.median(r[4][2] for r in ratios):.3f} s; counted before: median "
    f"{statistics.median(r[2] for r in ratios):.3f}",
    flush=True,
)
if not QUICK:
    a = adaptive_ladder(None)
    print("adaptive:", show(a), flush=True)
    u = uniform_ladder(None)
    print("uniform:", show(u), flush=True)
    for target in (0.1, 0.05, 0.03):
        fa, fu = first_within(a, target), first_within(u, target)
        if fa and fu:
            print(
                f"target {target}: adaptive {show([fa])}, uniform {show([fu])}: unknowns ratio "
                f"{fa[0] / fu[0]:.3f}, time ratio {fa[2] / fu[2]:.3f} (counted before {fa[3] / fu[3]:.3f})"
            )
