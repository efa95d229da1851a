"""Where one Fieldline rung of bench/em-transient spends its time: meshing + curving, assembly + port,
factorization (+ run set-up), stepping; the median of a few repeats (the shared machine is noisy).

Run: `.venv/bin/python bench/em-transient/phases.py RUNG [REPEATS]` (RUNG indexes bench.FEM_LADDER).
"""

import math
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench  # after the path set-up above


def main() -> None:
    rung = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    order, maxh, safety, dt = bench.FEM_LADDER[rung]
    rows = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        mesh = bench.coax_mesh(
            bench.L,
            maxh=maxh,
            curve_order=order if order > 1 else 0,
            curvature_safety=safety,
            end_labels=("port_0", "default"),
        )
        t1 = time.perf_counter()
        port = bench.build_wave_port(mesh, "port_0", "1", "TEM", 1.0)
        wf = bench.Waveform("gaussian", bench.TAU, 5 * bench.TAU, 0.0)
        solver = bench.TransientSolver(
            mesh, bench.uniform_media(1.0), order, "default", wf, ports=[port]
        )
        t2 = time.perf_counter()
        steps = math.ceil((wf.delay + bench.EXACT + 6 * bench.TAU) / dt)
        run = solver.run("newmark", dt, steps, energy_stride=steps)
        t3 = time.perf_counter()
        stepping = run.seconds_stepping
        rows.append((t1 - t0, t2 - t1, t3 - t2 - stepping, stepping, t3 - t0))
    mesh_s, setup_s, factor_s, step_s, total_s = (
        statistics.median(c) for c in zip(*rows)
    )
    print(
        f"rung {rung} ({solver.ndof} unknowns, {steps} steps): mesh+curve {mesh_s:.2f} s, "
        f"assembly+port {setup_s:.2f} s, factorization+run set-up {factor_s:.2f} s, "
        f"stepping {step_s:.2f} s ({1e3 * step_s / steps:.1f} ms/step), total {total_s:.2f} s "
        f"(median of {repeats})"
    )


if __name__ == "__main__":
    main()
