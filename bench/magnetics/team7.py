"""bench/magnetics, TEAM 7: Bz along A1–B1 by Fieldline and by GetDP 3.2 on the same gmsh mesh, against the
published measurements, with each code's time and peak memory.

Both codes solve the same A* eddy-current formulation (a–v with v absorbed in the plate) on the same
tetrahedra with the same source (the racetrack coil's N·I/S along its path): Fieldline through its
`eddy-current` analysis (the coil path from the closed-coil potential solve), GetDP through
bench/magnetics/team7.pro (the path as a closed-form direction field, second-order hierarchical edge
functions with the gradient-type ones only in the plate, tree gauge in the air; its default direct solver).
Each run is its own process, timed from outside (wall and CPU seconds, peak RSS from wait4).

Usage: .venv/bin/python bench/magnetics/team7.py [--plate-mm 12] [--order 2] [--freq 50 200]
Results: bench/magnetics/out/team7.json (and the mesh, GetDP's tables).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ENGINE = HERE.parents[1] / "engine"
OUT = HERE / "out"
sys.path.insert(0, str(ENGINE))

from fieldline_engine.testing.team7 import build_team7_mesh, measurements


def timed(
    args: list[str], cwd: Path, env: dict[str, str] | None = None
) -> dict[str, float]:
    """Runs a command under /usr/bin/time: its wall and CPU seconds and peak resident memory."""
    marker = "BENCH-TIME"
    proc = subprocess.run(
        ["/usr/bin/time", "-f", f"{marker} %e %U %S %M", *args],
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"{args[0]} failed ({proc.returncode}):\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        )
    line = next(x for x in reversed(proc.stderr.splitlines()) if x.startswith(marker))
    wall, user, system, peak_kb = (float(v) for v in line.split()[1:])
    return {
        "wall_s": wall,
        "cpu_s": user + system,
        "peak_mb": peak_kb / 1024,
        "log": proc.stdout + proc.stderr,
    }


FIELDLINE_RUN = """
import json, sys, time
import numpy as np
from fieldline_engine import analyses
from fieldline_engine.core.registry import analysis_for
from fieldline_engine.mesh.tet_model import model_from_mesh_data
from fieldline_engine.protocol import SILENT
from fieldline_engine.testing.team7 import PLATE_SIGMA, measurements
mesh_data = json.load(open(sys.argv[1]))
freq, order = float(sys.argv[2]), int(sys.argv[3])
points, _ = measurements(int(freq))
model = model_from_mesh_data(mesh_data)
config = {
    "analysisType": "eddy-current", "frequency": freq, "meshOrder": order, "linearSolver": sys.argv[4],
    "bodyMaterials": [{"region": "plate", "conductivity": PLATE_SIGMA}],
    "coils": [{"name": "coil", "region": "coil", "turns": 2742, "current": 1.0, "axis": [0, 0, 1]}],
    "probePoints": [{"point": (p * 1e3).tolist()} for p in points],
}
t = time.perf_counter()
sol = analysis_for(config).solve(model, config, SILENT)
bz = [[p["magnetic_flux_density_T"][2], p["magnetic_flux_density_imag_T"][2]] for p in sol.quantities["probes"]]
json.dump({"bz": bz, "unknowns": sol.solver_info["matrix_size"], "solve_s": time.perf_counter() - t,
           "solver": sol.solver_info.get("linear_solver")}, open(sys.argv[5], "w"))
"""


def run_fieldline(
    mesh_json: Path, freq: float, order: int, solver: str, threads: int
) -> dict:
    out = OUT / f"fieldline_{int(freq)}.json"
    env = {
        **os.environ,
        "PYTHONPATH": str(ENGINE),
        "OPENBLAS_NUM_THREADS": "1",
        "NGS_NUM_THREADS": str(threads),
    }
    t = timed(
        [
            sys.executable,
            "-c",
            FIELDLINE_RUN,
            str(mesh_json),
            str(freq),
            str(order),
            solver,
            str(out),
        ],
        ENGINE,
        env,
    )
    data = json.loads(out.read_text())
    bz = np.array([a + 1j * b for a, b in data["bz"]])
    return {
        **{k: v for k, v in t.items() if k != "log"},
        "bz": bz,
        "unknowns": data["unknowns"],
        "solver": data["solver"],
    }


def run_getdp(msh: Path, freq: float, order: int) -> dict:
    work = OUT / f"getdp_{int(freq)}"
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "team7.pro", work / "team7.pro")
    args = ["getdp", "team7.pro", "-msh", str(msh), "-setnumber", "Freq", str(freq), "-setnumber", "ElemOrder",
            str(order), "-solve", "Eddy", "-pos", "Line", "-v", "3"]  # fmt: skip
    t = timed(args, work)
    rows = np.loadtxt(work / "bz_line.txt")
    # Table rows: element type, element, x y z, then per point re(bx by bz) im(bx by bz) after 3 more columns.
    bz = rows[:, -4] + 1j * rows[:, -1]
    # "Info    : System 2/2: 258486 Dofs": the last system is the eddy-current one (the first, DivJ0's source
    # correction, has the coil's nodes only)
    dofs = [
        int(w.split()[w.split().index("Dofs") - 1])
        for w in t["log"].splitlines()
        if "Dofs" in w and "System" in w
    ]
    return {
        **{k: v for k, v in t.items() if k != "log"},
        "bz": bz,
        "unknowns": dofs[-1] if dofs else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plate-mm", type=float, default=12.0)
    parser.add_argument("--order", type=int, default=2)
    parser.add_argument("--freq", type=float, nargs="+", default=[50.0, 200.0])
    parser.add_argument("--solver", default="auto")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    compare(args.plate_mm, args.order, args.freq, args.solver, args.threads)


def compare(
    plate_mm: float,
    order: int,
    freqs: list[float],
    solver: str = "auto",
    threads: int = 1,
) -> None:
    """Both codes on one mesh at each frequency; prints and writes out/team7.json (bench.py --case team7)."""
    OUT.mkdir(parents=True, exist_ok=True)
    msh = OUT / "team7.msh"
    built = build_team7_mesh(plate_mm=plate_mm, msh_path=msh)
    mesh_json = OUT / "team7_mesh.json"
    mesh_json.write_text(json.dumps(built.mesh_data))
    report = {
        "plate_mm": plate_mm,
        "order": order,
        "tetrahedra": len(built.mesh_data["tetrahedra"]),
        "runs": [],
    }
    for freq in freqs:
        _, measured = measurements(int(freq))
        scale = float(np.max(np.abs(measured)))
        ours = run_fieldline(mesh_json, freq, order, solver, threads)
        theirs = run_getdp(msh, freq, order)
        row = {"frequency": freq}
        for name, r in (("fieldline", ours), ("getdp", theirs)):
            err = np.abs(r["bz"] - measured)
            row[name] = {
                "wall_s": round(r["wall_s"], 2),
                "cpu_s": round(r["cpu_s"], 2),
                "peak_mb": round(r["peak_mb"]),
                "unknowns": r["unknowns"],
                "rms_vs_measured": float(np.sqrt(np.mean(err**2)) / scale),
                "bz_1e-4T": [
                    [round(b.real * 1e4, 2), round(-b.imag * 1e4, 2)] for b in r["bz"]
                ],
            }
        diff = np.abs(ours["bz"] - theirs["bz"])
        row["max_difference_vs_peak"] = float(diff.max() / scale)
        row["rms_difference_vs_peak"] = float(np.sqrt(np.mean(diff**2)) / scale)
        row["cpu_ratio_fieldline_over_getdp"] = (
            row["fieldline"]["cpu_s"] / row["getdp"]["cpu_s"]
        )
        report["runs"].append(row)
        print(json.dumps({k: v for k, v in row.items()}, indent=1))
    (OUT / "team7.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
