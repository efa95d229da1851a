"""WR-90 at order 2 on growing meshes: time and peak memory per solve, direct vs iterative (GMRES + BDDC),
and S21's phase of the iterative solve against the direct one (issue 19's goals).

Each (rung, solver) runs in a fresh process so its peak memory is its own: VmPeak (the address space,
what JOB_MEMORY_LIMIT_MB caps) and VmHWM (resident). A direct rung too large for the machine is skipped.

Usage: .venv/bin/python bench/scale/scale.py [--rungs 0.35,1] [--direct-max 0.4] [--freq 10e9]
       [--tolerance 1e-6] [--threads 2] [--port-processes on|off] [--mesh saved|generate]
Writes bench/scale/out/scale.json and prints a table, then the pre-run memory estimate against each
measured VmPeak (bench/scale/estimate.ts). Each row also has `whole_s` (process start to S: Python start,
mesh, set-up, solve) and the memory of all the job's processes together (tree_memory.py), for the
engine's forked port processes (em/fullwave/port_processes.py). The mesh is Netgen's, made once per rung
and saved under out/meshes (the engine's solve job likewise loads the mesh step's mesh, never meshes).
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tree_memory import run_sampled

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
launched = float(sys.argv[8])  # time.time() when the bench started this process: the whole run counts
ng.SetNumThreads(threads)
t0 = time.perf_counter(); c0 = time.process_time()
# The engine's solve job builds its mesh from the mesh step's saved tetrahedra; it never meshes. The bench
# likewise loads the rung's mesh, generated once by mesh_file() (its time is reported as mesh_s).
mesh_file = sys.argv[9]
mesh = ng.Mesh(mesh_file) if mesh_file else waveguide_mesh(0.1, maxh=maxh)
ports = [build_wave_port(mesh, f"port_{k}", str(k + 1), "TE10", order=2) for k in range(2)]
solver = FullwaveSolver(
    mesh, uniform_media(), 2, "default", ports, linear_solver=method, tolerance=tolerance, max_iterations=1000
)
t1 = time.perf_counter(); c1 = time.process_time()
sol = solver.solve(freq, keep_fields=False)
t2 = time.perf_counter(); c2 = time.process_time()
whole_s = time.time() - launched
status = {l.split(":")[0]: int(l.split()[1]) for l in open("/proc/self/status") if l.startswith(("VmPeak", "VmHWM"))}
info = solver.describe_linear_solver()
row = {
    "unknowns": solver.ndof, "elements": mesh.ne, "method": solver.method,
    "setup_s": t1 - t0, "solve_s": t2 - t1, "solve_cpu_s": c2 - c1,
    "vm_peak_gb": status["VmPeak"] / 1e6 * 1.024, "vm_hwm_gb": status["VmHWM"] / 1e6 * 1.024,
    "s21": [sol.s[1, 0].real, sol.s[1, 0].imag], "s21_phase_deg": math.degrees(cmath.phase(sol.s[1, 0])),
    "iterations": [s["iterations"] for s in info.get("iterative_solves", [])],
    "residuals": [s["residual"] for s in info.get("iterative_solves", [])],
    "load_avg": os.getloadavg(), "threads": threads, "whole_s": whole_s,
}
# forked port processes (em/fullwave/port_processes.py): their CPU and peak resident memory
children = [c for f in info.get("port_processes", []) for c in f["children"]]
if children:
    row["port_processes"] = 1 + len(children)
    row["solve_cpu_s_children"] = sum(c["cpu_s"] for c in children)
    row["solve_cpu_s"] += row["solve_cpu_s_children"]
    row["vm_hwm_gb_children"] = [c["peak_resident_mb"] * 1.048576e-3 for c in children]
print(json.dumps(row), flush=True)  # the figures: the bench stops sampling memory here
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
    port_processes: bool = True,
    mesh: str = "",
) -> dict:
    env = {"OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"}
    if not port_processes:
        env["FIELDLINE_PORT_PROCESSES"] = "0"
    proc, memory = run_sampled(
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
            str(time.time()),
            mesh,
        ],
        env,
        first_row_stops=True,
    )
    if proc.returncode != 0:
        return {"method": method, "error": proc.stderr.strip().splitlines()[-1:]}
    return {**json.loads(proc.stdout.strip().splitlines()[-1]), **memory}


MESHER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
from fieldline_engine.testing.rf_meshes import waveguide_mesh
t = time.perf_counter()
mesh = waveguide_mesh(0.1, maxh=float(sys.argv[2]))
print(time.perf_counter() - t)
mesh.ngmesh.Save(sys.argv[3])
"""


def mesh_file(maxh: float) -> tuple[str, float | None]:
    """The rung's mesh saved as a Netgen .vol file (made once, in its own process): its path and the time
    Netgen took when it was made here (None when it already existed)."""
    path = HERE / "out" / "meshes" / f"wr90-{maxh * 1e3:g}mm.vol"
    if path.exists():
        return str(path), None
    path.parent.mkdir(parents=True, exist_ok=True)
    made = subprocess.run(
        [sys.executable, "-c", MESHER, str(ENGINE), str(maxh), str(path)],
        capture_output=True,
        text=True,
        env={"OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        check=True,
    )
    return str(path), float(made.stdout.strip().splitlines()[-1])


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
        "--port-processes",
        choices=("on", "off"),
        default="on",
        help="iterative rows: the ports solved by forked processes, one per thread (the engine's default)",
    )
    ap.add_argument(
        "--mesh",
        choices=("saved", "generate"),
        default="saved",
        help="saved: load the rung's mesh from a file made once (as the engine's solve job loads the mesh "
        "step's); generate: run Netgen inside the timed set-up",
    )
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
        mesh, mesh_s = mesh_file(maxh) if args.mesh == "saved" else ("", None)
        if mesh_s is not None:
            print(
                f"rung {millions} M: meshed by Netgen in {mesh_s:.1f} s wall, saved to {mesh}",
                flush=True,
            )
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
                maxh,
                m,
                args.freq,
                args.tolerance,
                args.threads,
                reference,
                args.port_processes == "on",
                mesh,
            )
            r["rung_m"], r["maxh"], r["mesh"] = millions, maxh, args.mesh
            if mesh_s is not None:
                r["mesh_s"] = mesh_s
            rows.append(r)
            print(json.dumps(r), flush=True)
            if "whole_s" in r:
                print(
                    f"rung {millions} M {m}: whole run {r['whole_s']:.1f} s wall (Python start, mesh "
                    f"{'loaded' if mesh else 'generated'}, set-up, solve; {r['setup_s']:.1f} s + "
                    f"{r['solve_s']:.1f} s), solve "
                    f"{r['solve_cpu_s']:.1f} CPU s over {r.get('port_processes', 1)} process(es); memory of "
                    f"all processes together {r['tree_resident_peak_gb']:.2f} GB resident (shared pages "
                    f"once; PSS {r['tree_pss_peak_gb']:.2f} GB; {r['tree_rss_peak_gb']:.2f} GB adding "
                    "each one's resident), VmPeak "
                    f"{r['vm_peak_gb']:.2f} GB per process",
                    flush=True,
                )
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
