"""The 0.35 M WR-90 rung on 1 and on 2 MPI processes (issue 19, docs/distributed.md): time and peak memory
per rank, and S21 against the one-process run.

The rung is one frequency with 2 ports, so 2 ranks take one port each: each rank builds the whole mesh,
operator and BDDC preconditioner, and solves its port (the engine's distributed.py deals the same way);
rank 0 gathers the solution vectors and forms S. Both runs use 1 thread per rank, so "2 processes" uses
2 cores where "1 process" uses 1; CPU seconds are quoted because the machine is shared.

Usage: .venv/bin/python bench/scale/mpi_scale.py [--rung 0.35] [--ranks 1,2] [--tolerance 1e-6]
       [--mesh saved|generate]
Each row gives the whole run's wall time (launch to exit, Python and MPI start-up included) and the memory
of all ranks together (each rank's VmHWM added, and the tree's sampled PSS; tree_memory.py).
Writes bench/scale/out/mpi.json and prints one row per rank count.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINE = HERE.parents[1] / "engine"
sys.path.insert(0, str(HERE))
from scale import MAXH_FOR_MILLIONS, mesh_file
from tree_memory import run_sampled

CHILD = r"""
import cmath, json, math, os, sys, time
sys.path.insert(0, sys.argv[1])
from fieldline_engine.core import ranks
import ngsolve as ng
from fieldline_engine.em.fullwave.distributed import deal_tasks
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.testing.rf_meshes import waveguide_mesh
maxh, freq, tolerance = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
ng.SetNumThreads(1)
comm = ranks.world()
rank, size = ranks.rank(), ranks.size()
t0 = time.perf_counter(); c0 = time.process_time()
mesh = ng.Mesh(sys.argv[5]) if sys.argv[5] else waveguide_mesh(0.1, maxh=maxh)  # saved: as a solve job
ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10", order=2) for k in range(2)]
solver = FullwaveSolver(mesh, uniform_media(), 2, "default", ports, linear_solver="gmres-bddc",
                        tolerance=tolerance, max_iterations=1000)
t1 = time.perf_counter(); c1 = time.process_time()
(task,) = deal_tasks([freq], 2, size)[rank] or [(freq, ())]
pieces = solver.solve_ports(freq, task[1], keep_fields=False) if task[1] else []
t2 = time.perf_counter(); c2 = time.process_time()
status = {l.split(":")[0]: int(l.split()[1]) for l in open("/proc/self/status") if l.startswith(("VmPeak", "VmHWM"))}
mine = {
    "rank": rank, "ports": [p + 1 for p in task[1]], "setup_s": t1 - t0, "setup_cpu_s": c1 - c0,
    "solve_s": t2 - t1, "solve_cpu_s": c2 - c1,
    "iterations": [r.iterations for r in solver.iterative.records],
    "vm_peak_gb": status["VmPeak"] / 1e6 * 1.024, "vm_hwm_gb": status["VmHWM"] / 1e6 * 1.024,
}
everyone = comm.gather((mine, pieces), root=0) if comm is not None else [(mine, pieces)]
if rank == 0:
    t3 = time.perf_counter()
    sol = solver.combine(freq, [p for _, ps in everyone for p in ps], keep_fields=False)
    per_rank = [m for m, _ in everyone]
    print(json.dumps({
        "ranks": size, "unknowns": solver.ndof,
        "wall_s": time.perf_counter() - t0, "solve_wall_s": t3 - t1,
        "cpu_s_total": sum(m["setup_cpu_s"] + m["solve_cpu_s"] for m in per_rank),
        "vm_peak_gb_per_rank": max(m["vm_peak_gb"] for m in per_rank),
        "vm_hwm_gb_per_rank": max(m["vm_hwm_gb"] for m in per_rank),
        "s21": [sol.s[1, 0].real, sol.s[1, 0].imag], "s21_phase_deg": math.degrees(cmath.phase(sol.s[1, 0])),
        "s": [[[v.real, v.imag] for v in row] for row in sol.s],
        "per_rank": per_rank, "load_avg": os.getloadavg(),
    }))
"""


def run(ranks: int, maxh: float, freq: float, tolerance: float, mesh: str = "") -> dict:
    child = [
        sys.executable,
        "-c",
        CHILD,
        str(ENGINE),
        str(maxh),
        str(freq),
        str(tolerance),
        mesh,
    ]
    mpiexec = Path(sys.executable).parent / "mpiexec"
    args = (
        [str(mpiexec), "-launcher", "fork", "-n", str(ranks), *child]
        if ranks > 1
        else child
    )
    env = {"OPENBLAS_NUM_THREADS": "1", "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    started = time.perf_counter()
    proc, memory = run_sampled(args, env)
    if proc.returncode != 0:
        return {"ranks": ranks, "error": proc.stderr.strip().splitlines()[-3:]}
    row = json.loads(proc.stdout.strip().splitlines()[-1])
    row["launch_wall_s"] = time.perf_counter() - started  # with Python and MPI start-up
    row.update(memory)
    # every rank's own peaks added up: the job's memory (ranks share nothing but libraries)
    row["vm_hwm_gb_sum"] = sum(m["vm_hwm_gb"] for m in row["per_rank"])
    row["vm_peak_gb_sum"] = sum(m["vm_peak_gb"] for m in row["per_rank"])
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rung", type=float, default=0.35)
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--freq", type=float, default=10e9)
    ap.add_argument("--tolerance", type=float, default=1e-6)
    ap.add_argument(
        "--mesh",
        choices=("saved", "generate"),
        default="saved",
        help="saved: every rank loads the rung's mesh made once (scale.py's); generate: each rank meshes",
    )
    args = ap.parse_args()
    maxh = MAXH_FOR_MILLIONS[args.rung]
    mesh = mesh_file(maxh)[0] if args.mesh == "saved" else ""
    rows = []
    for n in (int(r) for r in args.ranks.split(",")):
        row = run(n, maxh, args.freq, args.tolerance, mesh)
        row["rung_m"], row["maxh"] = args.rung, maxh
        rows.append(row)
        print(
            json.dumps({k: v for k, v in row.items() if k not in ("s", "per_rank")}),
            flush=True,
        )
        if "launch_wall_s" in row:
            print(
                f"{n} rank(s): whole run {row['launch_wall_s']:.1f} s wall (launch to exit); memory of all "
                f"ranks together: resident {row['vm_hwm_gb_sum']:.2f} GB (each rank's VmHWM added), "
                f"{row['tree_pss_peak_gb']:.2f} GB PSS sampled, VmPeak {row['vm_peak_gb_sum']:.2f} GB "
                "added",
                flush=True,
            )
    good = [r for r in rows if "s" in r]
    if len(good) > 1:
        import numpy as np

        ref = np.array(good[0]["s"])
        for r in good[1:]:
            r["max_ds_vs_first"] = float(np.abs(np.array(r["s"]) - ref).max())
            print(
                f"{r['ranks']} ranks vs {good[0]['ranks']}: max |ΔS| = {r['max_ds_vs_first']:.1e}"
            )
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "mpi.json").write_text(
        json.dumps(
            {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows},
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
