"""The cavity-eigen rung of issue 19: a PEC WR-90 cavity (22.86 × 10.16 × 100 mm) at order 2, six modes, the
direct path (shift-and-invert Arnoldi on a sparse LU) against the iterative one (LOBPCG + BDDC + gradient
projection): time, CPU seconds and peak memory per path, the frequencies' agreement and their error against
closed form f_mnp = (c/2)·√((m/a)² + (n/b)² + (p/d)²).

With --loss-tangent t the cavity is filled with a lossy dielectric εr = 1 − j·t: the pencil is complex, the
iterative path is shift-and-invert Arnoldi with GMRES + BDDC inner solves (eigen_shift_invert.py), and every
mode's k² is the lossless one divided by 1 − j·t, so Q = Re √(1/(1−jt)) / (2 Im √(1/(1−jt))) ≈ 1/t exactly.

Each (rung, path) runs in a fresh process so its peak memory is its own: VmPeak (the address space, what
JOB_MEMORY_LIMIT_MB caps) and VmHWM (resident). The estimate column is contracts/src/resources.ts's model.

Usage: .venv/bin/python bench/scale/eigen.py [--maxh 0.00144] [--methods iterative,direct] [--threads 2]
                                            [--loss-tangent 0.001]
Writes bench/scale/out/eigen-<maxh>.json and prints one JSON row per run.
"""

import argparse
import itertools
import json
import math
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINE = HERE.parents[1] / "engine"
SIZE = (22.86e-3, 10.16e-3, 0.1)
C0 = 299_792_458.0
MODES = 6

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
import ngsolve as ng
from fieldline_engine.em.fullwave.eigen import cavity_eigen
from fieldline_engine.em.fullwave.media import uniform_media
from fieldline_engine.testing.rf_meshes import cavity_mesh
maxh, method, threads, modes = float(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
tan_d = float(sys.argv[6])
ng.SetNumThreads(threads)
mesh = cavity_mesh((22.86e-3, 10.16e-3, 0.1), maxh=maxh)
t0 = time.perf_counter(); c0 = time.process_time()
sol = cavity_eigen(mesh, uniform_media(eps_r=complex(1, -tan_d)), 2, "default", n_modes=modes, linear_solver=method)
t1 = time.perf_counter(); c1 = time.process_time()
status = {l.split(":")[0]: int(l.split()[1]) for l in open("/proc/self/status") if l.startswith(("VmPeak", "VmHWM"))}
row = {
    "unknowns": sol.modes[0].field.space.ndof, "elements": mesh.ne, "method": sol.method,
    "solve_s": t1 - t0, "solve_cpu_s": c1 - c0,
    "vm_peak_gb": status["VmPeak"] * 1024 / 1e9, "vm_hwm_gb": status["VmHWM"] * 1024 / 1e9,
    "frequencies_hz": [m.frequency for m in sol.modes],
    "q_factors": [m.q_factor for m in sol.modes],
    "load_avg": os.getloadavg(),
    **{k: v for k, v in sol.info.items() if k != "eigen_solver"},
}
print(json.dumps(row))
"""


def closed_form(n: int) -> list[float]:
    a, b, d = SIZE
    f = sorted(
        C0 / 2 * math.sqrt((m / a) ** 2 + (k / b) ** 2 + (p / d) ** 2)
        for m, k, p in itertools.product(range(4), range(4), range(12))
        # TE_mnp (m or n > 0, p ≥ 1) and TM_mnp (m, n ≥ 1, p ≥ 0) of a box
        if (p >= 1 and (m or k)) or (m >= 1 and k >= 1)
        for _ in range(2 if (m >= 1 and k >= 1 and p >= 1) else 1)
    )
    return f[:n]


def estimate_gb(unknowns: int, method: str, lossy: bool) -> float:
    """contracts/src/resources.ts MEMORY_MODEL for an em-eigen job."""
    if method == "direct":
        return (1.0e9 + (2 if lossy else 1) * 450 * unknowns ** (4 / 3)) / 1e9
    return (1.0e9 + (LOSSY_ITERATIVE_BYTES if lossy else 7000) * unknowns) / 1e9


# contracts/src/resources.ts MEMORY_MODEL.eigenLossyIterativeBytesPerUnknown
LOSSY_ITERATIVE_BYTES = 7000


def exact_q(tan_d: float) -> float:
    s = (1 - 1j * tan_d) ** -0.5
    return s.real / (2 * s.imag)


def run(maxh: float, method: str, threads: int, tan_d: float) -> dict:
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            str(ENGINE),
            str(maxh),
            method,
            str(threads),
            str(MODES),
            str(tan_d),
        ],
        capture_output=True,
        text=True,
        env={"OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"},
        check=False,
    )
    if proc.returncode != 0:
        return {"method": method, "error": proc.stderr.strip().splitlines()[-3:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    # 1.44 mm: 0.37 M order-2 unknowns on the 100 mm guide (bench/scale/scale.py's 0.35 M rung)
    ap.add_argument("--maxh", type=float, default=0.00144)
    ap.add_argument("--methods", default="iterative,direct")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--loss-tangent", type=float, default=0.0)
    args = ap.parse_args()
    tan_d = args.loss_tangent
    exact = closed_form(MODES)
    rows = []
    for method in args.methods.split(","):
        r = run(args.maxh, method, args.threads, tan_d)
        r["maxh"] = args.maxh
        if "frequencies_hz" in r:
            r["error_vs_closed_form"] = [
                f / e - 1 for f, e in zip(r["frequencies_hz"], exact, strict=False)
            ]
            if (
                tan_d
            ):  # f = f0 · Re √(1/(1 − jt)): the closed form scales by the same factor
                scale = ((1 - 1j * tan_d) ** -0.5).real
                r["error_vs_closed_form"] = [
                    f / (e * scale) - 1
                    for f, e in zip(r["frequencies_hz"], exact, strict=False)
                ]
                r["q_error_vs_closed_form"] = [
                    q / exact_q(tan_d) - 1 for q in r["q_factors"]
                ]
            r["estimate_gb"] = estimate_gb(r["unknowns"], method, tan_d > 0)
            r["vm_peak_over_estimate"] = r["vm_peak_gb"] / r["estimate_gb"]
        rows.append(r)
        print(json.dumps(r), flush=True)
    got = {r["method"]: r["frequencies_hz"] for r in rows if "frequencies_hz" in r}
    if len(got) == 2:
        diff = max(
            abs(a / b - 1) for a, b in zip(got["iterative"], got["direct"], strict=True)
        )
        print(f"max |f_iterative / f_direct − 1| = {diff:.2e}", flush=True)
        qs = {r["method"]: r["q_factors"] for r in rows if "q_factors" in r}
        if tan_d:
            q_diff = max(
                abs(a / b - 1)
                for a, b in zip(qs["iterative"], qs["direct"], strict=True)
            )
            print(f"max |Q_iterative / Q_direct − 1| = {q_diff:.2e}", flush=True)
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / f"eigen-{args.maxh:g}.json").write_text(
        json.dumps(
            {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows},
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
