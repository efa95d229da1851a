"""WR-90 at order 2 on growing meshes: time and peak memory per solve, direct vs iterative (GMRES + BDDC),
and S21's phase of the iterative solve against the direct one (issue 19's goals).

Each (rung, solver) runs in a fresh process so its peak memory is its own: VmPeak (the address space,
what JOB_MEMORY_LIMIT_MB caps) and VmHWM (resident). A direct rung too large for the machine is skipped.

Usage: .venv/bin/python bench/scale/scale.py [--rungs 0.35,1] [--direct-max 0.4] [--freq 10e9]
       [--tolerance 1e-6] [--threads 2]
Writes bench/scale/out/scale.json and prints a table, then the pre-run memory estimate against each
measured VmPeak (bench/scale/estimate.ts).
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINE = HERE.parents[1] / "engine"

# maxh (m) of the 100 mm WR-90 section giving about this many order-2 unknowns, measured: 367 248,
# 974 874 and 2 060 370 (Netgen's sizes move in steps: 1.01 mm gives 0.90 M, 0.88 mm already 1.93 M).
MAXH_FOR_MILLIONS = {0.35: 0.00144, 1.0: 0.0009, 2.0: 0.0008}

CHILD = r"""
import cmath, json, math, os, resource, sys, time
sys.path.insert(0, sys.argv[1])
import ngsolve as ng
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.em.fullwave.solver import FullwaveSolver
from fieldline_engine.em.ports.wave_port import build_wave_port
from fieldline_engine.testing.rf_meshes import waveguide_mesh
maxh, method, freq = float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
tolerance, threads, reference_tolerance = float(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
ng.SetNumThreads(threads)
t0 = time.perf_counter(); c0 = time.process_time()
mesh = waveguide_mesh(0.1, maxh=maxh)
ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10", order=2) for k in range(2)]
solver = FullwaveSolver(
    mesh, uniform_media(), 2, "default", ports, linear_solver=method, tolerance=tolerance, max_iterations=1000
)
t1 = time.perf_counter(); c1 = time.process_time()
sol = solver.solve(freq, keep_fields=False)
t2 = time.perf_counter(); c2 = time.process_time()
status = {l.split(":")[0]: int(l.split()[1]) for l in open("/proc/self/status") if l.startswith(("VmPeak", "VmHWM"))}
info = solver.describe_linear_solver()
row = {
    "unknowns": solver.ndof, "elements": mesh.ne, "method": solver.method,
    "setup_s": t1 - t0, "solve_s": t2 - t1, "solve_cpu_s": c2 - c1,
    "vm_peak_gb": status["VmPeak"] / 1e6 * 1.024, "vm_hwm_gb": status["VmHWM"] / 1e6 * 1.024,
    "s21": [sol.s[1, 0].real, sol.s[1, 0].imag], "s21_phase_deg": math.degrees(cmath.phase(sol.s[1, 0])),
    "iterations": [s["iterations"] for s in info.get("iterative_solves", [])],
    "residuals": [s["residual"] for s in info.get("iterative_solves", [])],
    "load_avg": os.getloadavg(), "threads": threads,
}
if sol.s_uncorrected is not None:
    # the engine's S is corrected by the adjoint-weighted residual (error ≈ the product of the two ports'
    # solve errors); the plain overlap's S21 against it is the phase error a solve without it would have
    row["s21_phase_plain_vs_corrected_deg"] = math.degrees(cmath.phase(sol.s_uncorrected[1, 0] / sol.s[1, 0]))
    row["s_correction_max"] = float(abs(sol.s_uncorrected - sol.s).max())
if reference_tolerance and solver.iterative is not None:
    # Where the direct solve does not fit: the same system iterated much further is the phase reference
    # (measured after the figures above, so it changes none of them).
    solver.iterative.tolerance = reference_tolerance
    try:
        ref = solver.solve(freq, keep_fields=False)
    except Exception as error:  # a reference that stalls is reported, not fatal to the row
        row["reference_error"] = str(error)
        print(json.dumps(row))
        sys.exit(0)
    row["reference_tolerance"] = reference_tolerance
    row["reference_iterations"] = [s["iterations"] for s in solver.describe_linear_solver()["iterative_solves"][-2:]]
    row["s21_phase_vs_reference_deg"] = math.degrees(cmath.phase(sol.s[1, 0] / ref.s[1, 0]))
print(json.dumps(row))
"""


def run(
    maxh: float,
    method: str,
    freq: float,
    tolerance: float = 1e-6,
    threads: int = 2,
    reference_tolerance: float = 0.0,
) -> dict:
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            str(ENGINE),
            str(maxh),
            method,
            str(freq),
            str(tolerance),
            str(threads),
            str(reference_tolerance),
        ],
        capture_output=True,
        text=True,
        env={"OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        check=False,
    )
    if proc.returncode != 0:
        return {"method": method, "error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rungs", default="0.35,1")
    ap.add_argument(
        "--direct-max",
        type=float,
        default=0.4,
        help="largest rung (M unknowns) solved directly",
    )
    ap.add_argument("--freq", type=float, default=10e9)
    # The product's default (spec 001 §9, contracts' tolerance default): what a user's job iterates to.
    ap.add_argument("--tolerance", type=float, default=1e-6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--reference-tolerance",
        type=float,
        default=1e-8,
        help="rungs without a direct solve: ∠S21 against the same system iterated to this tolerance",
    )
    ap.add_argument(
        "--maxh",
        type=float,
        default=None,
        help="instead, one rung at this maxh (rung 0)",
    )
    args = ap.parse_args()
    rungs = [
        (float(r), MAXH_FOR_MILLIONS[float(r)]) for r in args.rungs.split(",") if r
    ]
    if args.maxh:
        rungs = [(0.0, args.maxh)]  # solved both ways whatever its size
    rows = []
    for millions, maxh in rungs:
        methods = ["gmres-bddc"] + (["direct"] if millions <= args.direct_max else [])
        results: dict[str, dict] = {}
        for (
            m
        ) in methods:  # direct last: its phase is the reference for the iterative row
            reference = (
                args.reference_tolerance
                if m != "direct" and "direct" not in methods
                else 0.0
            )
            r = results[m] = run(
                maxh, m, args.freq, args.tolerance, args.threads, reference
            )
            r["rung_m"], r["maxh"] = millions, maxh
            rows.append(r)
            print(json.dumps(r), flush=True)
        it, d = results["gmres-bddc"], results.get("direct", {})
        if "s21" in it and "s21" in d:
            it["s21_phase_vs_direct_deg"] = (
                it["s21_phase_deg"] - d["s21_phase_deg"] + 180
            ) % 360 - 180
            print(
                f"rung {millions} M: S21 phase iterative - direct = {it['s21_phase_vs_direct_deg']:+.2e} deg",
                flush=True,
            )
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "scale.json").write_text(
        json.dumps(
            {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows},
            indent=1,
        )
    )
    # the estimate shown before Run against each measured peak (issue 19: within a factor of 1.5); no
    # wasm guard regions, so it also runs under the `prlimit --as` the big rungs are given
    try:
        subprocess.run(
            [
                "node",
                "--disable-wasm-trap-handler",
                "--import",
                "tsx",
                str(HERE / "estimate.ts"),
                str(out / "scale.json"),
            ],
            cwd=HERE.parents[1],
            check=False,
        )
    except FileNotFoundError:
        print(
            "node not found: run `npx tsx bench/scale/estimate.ts` for the estimate's ratios"
        )


if __name__ == "__main__":
    main()
