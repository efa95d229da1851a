"""Measures unknowns and peak memory of real engine runs, for the pre-run resource estimate
(contracts/src/resources.ts). Each run is a fresh `fieldline_engine solve` process under /usr/bin/time.

Usage: .venv/bin/python bench/estimate/calibrate.py [--quick]   (writes bench/estimate/out/runs.json)
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENGINE = HERE.parents[1] / "engine"
sys.path.insert(0, str(ENGINE))

from fieldline_engine.testing.meshes import box_mesh, faces_on_plane


def structural(mesh):
    return {
        "analysisType": "structural",
        "meshOrder": 2,
        "linearSolver": "direct",
        "fixedSupports": [{"faces": faces_on_plane(mesh, 0, 0.0)}],
        "forceLoads": [{"faces": faces_on_plane(mesh, 0, 1.0), "force": [0, 0, -100]}],
    }


def thermal(mesh):
    return {
        "analysisType": "thermal",
        "meshOrder": 2,
        "linearSolver": "direct",
        "temperatureConditions": [
            {"faces": faces_on_plane(mesh, 0, 0.0), "temperature": 300},
            {"faces": faces_on_plane(mesh, 0, 1.0), "temperature": 400},
        ],
    }


def fullwave(mesh):
    walls = [
        f
        for axis, v in ((1, 0.0), (1, 0.2), (2, 0.0), (2, 0.1))
        for f in faces_on_plane(mesh, axis, v)
    ]
    return {
        "analysisType": "em",
        "frequency": 1e9,
        "meshOrder": 2,
        "useWavePorts": True,
        "wavePorts": [
            {"portID": 1, "faces": faces_on_plane(mesh, 0, 0.0), "mode": "TE10"},
            {"portID": 2, "faces": faces_on_plane(mesh, 0, 1.0), "mode": "TE10"},
        ],
        "dirichletFaceConditions": [{"faces": walls, "voltage": 0}],
    }


# Runs the engine's CLI in-process and reports the address space's peak (VmPeak) as it exits.
RUNNER = """
import runpy, sys
sys.argv = ["fieldline_engine", "solve", "--job", sys.argv[1]]
try:
    runpy.run_module("fieldline_engine", run_name="__main__")
finally:
    print(next(l for l in open("/proc/self/status") if l.startswith("VmPeak")).strip(), file=sys.stderr)
"""


def thermal_cg(mesh):
    return {**thermal(mesh), "linearSolver": "cg-amg"}


def structural_cg(mesh):
    return {**structural(mesh), "linearSolver": "cg-bddc"}


CASES = {
    "structural": structural,
    "thermal": thermal,
    "fullwave": fullwave,
    "thermal-cg": thermal_cg,
    "structural-cg": structural_cg,
}


def run(kind: str, cells: tuple[int, int, int]) -> dict:
    mesh = box_mesh((1.0, 0.2, 0.1), cells)
    mesh["units"] = "m"
    config = CASES[kind](mesh)
    with tempfile.TemporaryDirectory() as tmp:
        job = Path(tmp)
        (job / "job.json").write_text(json.dumps({"mesh_data": mesh, "config": config}))
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%M %e", sys.executable, "-c", RUNNER, tmp],
            check=False,
            capture_output=True,
            text=True,
            cwd=ENGINE,
            env={
                "PYTHONPATH": str(ENGINE),
                "OPENBLAS_NUM_THREADS": "1",
                "PATH": "/usr/bin:/bin",
            },
        )
        lines = proc.stderr.strip().splitlines()
        peak_kb, wall = lines[-1].split()
        vm_peak_kb = next(int(x.split()[1]) for x in lines if x.startswith("VmPeak:"))
        results = (
            json.loads((job / "results.json").read_text())
            if (job / "results.json").exists()
            else {}
        )
    info = results.get("solver_info", {})
    return {
        "kind": kind,
        "cells": cells,
        "vertices": len(mesh["vertices"]),
        "tetrahedra": len(mesh["tetrahedra"]),
        "unknowns": info.get("matrix_size"),
        "peak_mb": int(peak_kb) / 1024,
        "address_space_mb": vm_peak_kb
        / 1024,  # what RLIMIT_AS (JOB_MEMORY_LIMIT_MB) limits
        "wall_s": float(wall),
    }


def main() -> None:
    quick = "--quick" in sys.argv
    sizes = {
        "structural": [(20, 4, 2), (40, 8, 4), (60, 12, 6)],
        "thermal": [(40, 8, 4), (80, 16, 8)],
        "fullwave": [(20, 4, 2), (40, 8, 4)],
        "thermal-cg": [(80, 16, 8), (120, 24, 12)],
        "structural-cg": [(60, 12, 6)],
    }
    only = [a for a in sys.argv[1:] if a in CASES]
    runs = []
    for kind in only or CASES:
        for cells in [(10, 2, 1), (20, 4, 2)] if quick else sizes[kind]:
            r = run(kind, cells)
            print(json.dumps(r), flush=True)
            runs.append(r)
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    path = out / "runs.json"
    kept = [r for r in json.loads(path.read_text())] if only and path.exists() else []
    kept = [r for r in kept if r["kind"] not in only]
    path.write_text(json.dumps(kept + runs, indent=1))


if __name__ == "__main__":
    main()
