"""bench/em-fullwave: adaptive fast sweep vs uniform sweep on an iris-coupled WR-90 cavity filter.

Model: WR-90 (22.86 × 10.16 mm), 60 mm long, two inductive irises (1 mm thick, 11 mm gap, 18 mm
apart) forming a resonant cavity; TE10 wave ports at both ends; element order 2. Both sweeps run in the
same process on the same solver, 8.2–12.4 GHz, with the same points: the uniform one factorizes once
per point, the adaptive one builds the reduced model (default tolerance 1e-3) from a few full solves.
Reports the wall-time ratio and max |ΔS| (and Δ|S| in dB near the resonance).
Usage: .venv/bin/python bench/em-fullwave/fast_sweep.py [points=101] [maxh_mm=3.5]
"""

import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "engine"))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

A, B = 22.86e-3, 10.16e-3
LENGTH, IRIS_T, IRIS_GAP, CAVITY = 60e-3, 1e-3, 11e-3, 18e-3


def iris_filter_mesh(maxh: float):
    import ngsolve as ng
    from netgen.occ import Box, OCCGeometry, Z

    guide = Box((0, 0, 0), (A, B, LENGTH))
    guide.faces.name = "default"
    guide.faces.Min(Z).name = "port_0"
    guide.faces.Max(Z).name = "port_1"
    side = (A - IRIS_GAP) / 2
    for zc in (LENGTH / 2 - CAVITY / 2, LENGTH / 2 + CAVITY / 2):
        z0 = zc - IRIS_T / 2
        for x0 in (0.0, A - side):
            iris = Box((x0, 0, z0), (x0 + side, B, z0 + IRIS_T))
            iris.faces.name = "default"
            guide = guide - iris
    guide.mat("body0")
    return ng.Mesh(OCCGeometry(guide).GenerateMesh(maxh=maxh))


def s_array(section):
    import numpy as np

    return np.array(
        [[[complex(*v) for v in row] for row in m] for m in section["matrix"]]
    )


def main() -> int:
    import numpy as np
    from fieldline_engine import protocol
    from fieldline_engine.em.fullwave.fast_sweep import run_frequency_sweep
    from fieldline_engine.em.fullwave.media import uniform_media
    from fieldline_engine.em.fullwave.solver import FullwaveSolver
    from fieldline_engine.em.ports.wave_port import build_wave_port

    protocol.progress = lambda *_a, **_k: (
        None
    )  # the engine's progress events would flood the output
    points = int(sys.argv[1]) if len(sys.argv) > 1 else 101
    maxh = float(sys.argv[2]) * 1e-3 if len(sys.argv) > 2 else 3.5e-3
    mesh = iris_filter_mesh(maxh)
    ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10") for k in range(2)]
    solver = FullwaveSolver(mesh, uniform_media(), 2, "default", ports)
    freqs = [float(f) for f in np.linspace(8.2e9, 12.4e9, points)]
    field = freqs[points // 2]
    print(f"iris filter: {mesh.ne} tetrahedra, {solver.ndof} unknowns, {points} points")

    t0 = time.perf_counter()
    adaptive, _, info = run_frequency_sweep(
        solver, freqs, field, "wave_port", 50.0, "adaptive"
    )
    t_adaptive = time.perf_counter() - t0
    t0 = time.perf_counter()
    uniform, _, _ = run_frequency_sweep(solver, freqs, field, "wave_port", 50.0)
    t_uniform = time.perf_counter() - t0

    su, sa = s_array(uniform), s_array(adaptive)
    d_s = float(np.max(np.abs(su - sa)))
    db = lambda x: 20 * np.log10(np.maximum(np.abs(x), 1e-300))
    d_db_s21 = float(np.max(np.abs(db(su[:, 1, 0]) - db(sa[:, 1, 0]))))
    k_peak = int(np.argmax(np.abs(su[:, 1, 0])))
    summary = {
        "model": "WR-90 two-iris cavity filter, order 2",
        "unknowns": solver.ndof,
        "points": points,
        "uniform_seconds": t_uniform,
        "adaptive_seconds": t_adaptive,
        "ratio_adaptive_over_uniform": t_adaptive / t_uniform,
        "full_solves_adaptive": info["full_solves"],
        "reduced_model_size": info["reduced_model_size"],
        "sampled_ghz": [f / 1e9 for f in info["sampled_frequencies"]],
        "error_estimate": info["error_estimate"],
        "max_abs_delta_s": d_s,
        "max_delta_s21_db": d_db_s21,
        "s21_db_range": [float(db(su[:, 1, 0]).min()), float(db(su[:, 1, 0]).max())],
        "s11_db_min": float(db(su[:, 0, 0]).min()),
        "transmission_peak_ghz": freqs[k_peak] / 1e9,
        "cpu": os.cpu_count(),
    }
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "fast_sweep.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
