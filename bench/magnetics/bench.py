"""bench/magnetics: Fieldline's magnetostatic solver side by side with GetDP 3.2 on the same gmsh mesh.

Cases (one per subcommand group; `--case`; `--case team7` runs team7.py's comparison, eddy currents):
  toroid  a circular-section ring core (R0 = 25 mm, c = 5 mm, μr = 1000) inside a 2 mm winding shell of
          100 turns × 1 A, in an air sphere (r = 80 mm). Exact for the ideal toroid:
          L = μ0 μr N² (R0 − √(R0² − c²)) (the shell's and the air's energy add ~0.1 %).

Usage:
  bench.py mesh --case toroid --size 0.004 --out DIR      writes DIR/toroid.msh and DIR/toroid_params.pro
  bench.py fieldline --case toroid --dir DIR [--order 1]   solves with the engine, prints L and unknowns
  bench.py getdp --case toroid --dir DIR                  runs getdp on the same mesh, prints L
  bench.py compare --case toroid --dir DIR                 both, with the exact value

Fieldline reads the .msh through gmsh's Python API into the upload format and runs the registered
`magnetostatic` analysis (the coil `wraps` the core; the engine finds the current's path itself). GetDP
gets the same tetrahedra and an analytic, exactly divergence-free poloidal current density (toroid.pro).
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
# the engine folder to run (`--engine DIR`: e.g. another checkout's engine/, to time before/after in one sitting)
ENGINE = Path(
    os.environ.get("FIELDLINE_BENCH_ENGINE", HERE.parents[1] / "engine")
).resolve()
MU0 = 4e-7 * math.pi
TOROID = {
    "R0": 0.025,
    "c": 0.005,
    "t": 0.002,
    "air": 0.08,
    "turns": 100,
    "current": 1.0,
    "mur": 1000.0,
}


def toroid_exact() -> float:
    p = TOROID
    return (
        MU0
        * p["mur"]
        * p["turns"] ** 2
        * (p["R0"] - math.sqrt(p["R0"] ** 2 - p["c"] ** 2))
    )


def mesh_toroid(size: float, out: Path) -> None:
    import gmsh

    p = TOROID
    out.mkdir(parents=True, exist_ok=True)
    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.model.add("toroid")
    occ = gmsh.model.occ
    core = occ.addTorus(0, 0, 0, p["R0"], p["c"])
    shell = occ.addTorus(0, 0, 0, p["R0"], p["c"] + p["t"])
    air = occ.addSphere(0, 0, 0, p["air"])
    out_map, _ = occ.fragment([(3, air)], [(3, core), (3, shell)])
    occ.synchronize()
    volumes = [tag for dim, tag in out_map if dim == 3]

    def radius_of(
        tag,
    ):  # the largest distance from the axis circle among the volume's bounding box corners
        x0, _, _, x1, _, _ = gmsh.model.getBoundingBox(3, tag)
        return max(abs(x0), abs(x1))

    by_size = sorted(volumes, key=radius_of)
    core_tag, shell_tag, air_tag = by_size[0], by_size[1], by_size[2]
    gmsh.model.addPhysicalGroup(3, [core_tag], 1)
    gmsh.model.addPhysicalGroup(3, [shell_tag], 2)
    gmsh.model.addPhysicalGroup(3, [air_tag], 3)
    outer = [
        tag
        for dim, tag in gmsh.model.getBoundary([(3, air_tag)], oriented=False)
        if dim == 2
    ]
    sphere = [s for s in outer if gmsh.model.getBoundingBox(2, s)[3] > 0.9 * p["air"]]
    gmsh.model.addPhysicalGroup(2, sphere, 10)
    # a point of the winding shell, where GetDP's source correction fixes its potential (toroid.pro, XiNode)
    shell_points = gmsh.model.getBoundary([(3, shell_tag)], recursive=True)
    gmsh.model.addPhysicalGroup(0, [shell_points[0][1]], 20)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 8 * size)
    field = gmsh.model.mesh.field
    dist = field.add("Distance")
    field.setNumbers(
        dist,
        "SurfacesList",
        [t for d, t in gmsh.model.getBoundary([(3, shell_tag)], oriented=False)],
    )
    thr = field.add("Threshold")
    field.setNumber(thr, "InField", dist)
    field.setNumber(thr, "SizeMin", size)
    field.setNumber(thr, "SizeMax", 8 * size)
    field.setNumber(thr, "DistMin", 0.005)
    field.setNumber(thr, "DistMax", 0.06)
    field.setAsBackgroundMesh(thr)
    gmsh.option.setNumber("Mesh.MeshSizeExtendFromBoundary", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromPoints", 0)
    gmsh.option.setNumber("Mesh.MeshSizeFromCurvature", 0)
    gmsh.model.mesh.generate(3)
    gmsh.option.setNumber("Mesh.MshFileVersion", 2.2)  # GetDP reads MSH 2 natively
    gmsh.write(str(out / "toroid.msh"))
    n_tets = sum(len(t) for t in gmsh.model.mesh.getElementsByType(4)[0:1])
    gmsh.finalize()
    rho1, rho2 = p["c"], p["c"] + p["t"]
    (out / "toroid_params.pro").write_text(
        f"R0 = {p['R0']}; RHO1 = {rho1}; RHO2 = {rho2}; NI = {p['turns'] * p['current']}; MUR = {p['mur']};\n"
    )
    shutil.copy(HERE / "toroid.pro", out / "toroid.pro")
    print(json.dumps({"mesh": str(out / "toroid.msh"), "tetrahedra": n_tets}))


def meshed_exact(directory: Path) -> float:
    """The ideal toroid's L on the meshed core (straight tetrahedra shrink the round section): with H = NI/2πr
    in the core, L = μ0 μr N² ∫ dA/(2πr) = μ0 μr N²/(4π²) ∫ dV/r², by a 4-point rule per tetrahedron. Both codes
    solve on this mesh, so this is the value their discretisations converge to (to the shell's and air's ~0.1 %)."""
    data = read_msh(directory / "toroid.msh")
    points = np.asarray(data["vertices"])
    tets = np.asarray(data["tetrahedra"])[np.asarray(data["tetrahedron_regions"]) == 0]
    corners = points[tets]
    volume = np.abs(np.linalg.det(corners[:, 1:] - corners[:, :1])) / 6.0
    # the 4-point rule's barycentric weights
    a, b = 0.5854101966249685, 0.1381966011250105
    total = np.zeros(len(tets))
    for k in range(4):
        weights = np.full(4, b)
        weights[k] = a
        x = np.einsum("k,ekd->ed", weights, corners)
        total += 0.25 / (x[:, 0] ** 2 + x[:, 1] ** 2)
    p = TOROID
    return float(
        MU0 * p["mur"] * p["turns"] ** 2 / (4 * math.pi**2) * (volume * total).sum()
    )


def read_msh(path: Path) -> dict:
    """The .msh's tetrahedra in the upload format (metres), bodies by physical group 1, 2, 3."""
    import gmsh

    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.open(str(path))
    tags, xyz, _ = gmsh.model.mesh.getNodes()
    index = np.zeros(int(tags.max()) + 1, dtype=np.int64)
    index[tags.astype(np.int64)] = np.arange(len(tags))
    tets, regions = [], []
    for body, group in enumerate((1, 2, 3)):
        for entity in gmsh.model.getEntitiesForPhysicalGroup(3, group):
            _, nodes = gmsh.model.mesh.getElementsByType(4, entity)
            t = index[nodes.astype(np.int64)].reshape(-1, 4)
            tets.append(t)
            regions.append(np.full(len(t), body))
    gmsh.finalize()
    return {
        "vertices": xyz.reshape(-1, 3).tolist(),
        "tetrahedra": np.concatenate(tets).tolist(),
        "tetrahedron_regions": np.concatenate(regions).tolist(),
        "region_names": ["core", "winding", "air"],
        "units": "m",
    }


def toroid_config(order: int, solver: str) -> dict:
    p = TOROID
    return {
        "analysisType": "magnetostatic",
        "meshOrder": order,
        "airPadding": 0,
        "linearSolver": solver,
        "coils": [
            {
                "name": "w",
                "region": "winding",
                "turns": p["turns"],
                "current": p["current"],
                "wraps": "core",
            }
        ],
        "bodyMaterials": [{"region": "core", "relativePermeability": p["mur"]}],
    }


def run_fieldline(directory: Path, order: int, solver: str = "auto") -> dict:
    sys.path.insert(0, str(ENGINE))
    from fieldline_engine import analyses  # noqa: F401
    from fieldline_engine.core.registry import analysis_for
    from fieldline_engine.mesh.tet_model import model_from_mesh_data
    from fieldline_engine.protocol import SILENT

    started = time.perf_counter()
    model = model_from_mesh_data(read_msh(directory / "toroid.msh"))
    config = toroid_config(order, solver)
    sol = analysis_for(config).solve(model, config, SILENT)
    inductance = sol.quantities["inductance_H"]
    return {
        "code": "fieldline",
        "order": order,
        "inductance_H": inductance,
        "unknowns": sol.solver_info["matrix_size"],
        "linear_solver": sol.solver_info.get("linear_solver"),
        "preconditioner": sol.solver_info.get("preconditioner"),
        "iterations": sol.solver_info.get("iterations"),
        "seconds": round(time.perf_counter() - started, 2),
    }


def run_getdp(directory: Path) -> dict:
    started = time.perf_counter()
    proc = subprocess.run(
        [
            "getdp",
            "toroid.pro",
            "-msh",
            "toroid.msh",
            "-solve",
            "MagSta",
            "-pos",
            "energy",
            "-v",
            "2",
        ],
        cwd=directory,
        capture_output=True,
        text=True,
        check=True,
    )
    energy = float((directory / "energy.txt").read_text().split()[-1])
    p = TOROID
    unknowns = None
    for line in proc.stdout.splitlines() + proc.stderr.splitlines():
        if "N:" in line and "System" in line:
            unknowns = line.strip()
    return {
        "code": "getdp",
        "inductance_H": 2 * energy / p["current"] ** 2,
        "system": unknowns,
        "seconds": round(time.perf_counter() - started, 2),
    }


def _process_cpu(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """A whole process's CPU seconds (user + system, from wait4's rusage), its wall seconds and its stdout."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{command[:3]} failed ({proc.returncode})")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - started, out


def run_pairs(directory: Path, pairs: int, order: int, solver: str) -> None:
    """The product measurement and the cold one, interleaved on the same mesh (warm, GetDP, cold per round):
    - `warm`: the job as the server runs it, on a spare forked from the engine's fork server (warm_job.py):
      the forked child's CPU from the job line to its result, results files written;
    - `getdp`: GetDP's whole process (how GetDP runs a job: it has no server, its start-up is ~10 ms of C);
    - `cold`: a whole `bench.py fieldline` process (Python, NumPy, SciPy and NGSolve imported first, ≈ 1 s).
    Prints one JSON line per round with the ratios, then the medians, and the load average around the run."""
    from warm_job import ForkServer, read_result, write_job

    job_dir = directory / "warm-job"
    write_job(job_dir, toroid_config(order, solver), read_msh(directory / "toroid.msh"))
    load_before = os.getloadavg()
    server = ForkServer(sys.executable, ENGINE)
    rows = []
    try:
        for _ in range(pairs):
            warm = server.run_job(job_dir)
            warm_L = read_result(job_dir)["quantities"]["inductance_H"]
            getdp_cpu, getdp_wall, _ = _process_cpu(
                [
                    "getdp",
                    "toroid.pro",
                    "-msh",
                    "toroid.msh",
                    "-solve",
                    "MagSta",
                    "-pos",
                    "energy",
                    "-v",
                    "0",
                ],
                directory,
            )
            getdp_L = (
                2
                * float((directory / "energy.txt").read_text().split()[-1])
                / TOROID["current"] ** 2
            )
            cold_cpu, cold_wall, _ = _process_cpu(
                [
                    sys.executable,
                    str(HERE / "bench.py"),
                    "fieldline",
                    "--dir",
                    str(directory),
                    "--order",
                    str(order),
                    "--solver",
                    solver,
                ],
                HERE,
            )
            row = {
                "warm_cpu_s": warm["job_cpu_s"],
                "warm_wall_s": warm["job_wall_s"],
                "launcher_cpu_s": warm["launcher_cpu_s"],
                "getdp_cpu_s": round(getdp_cpu, 3),
                "getdp_wall_s": round(getdp_wall, 3),
                "cold_cpu_s": round(cold_cpu, 3),
                "cold_wall_s": round(cold_wall, 3),
                "warm_over_getdp_cpu": round(warm["job_cpu_s"] / getdp_cpu, 3),
                "cold_over_getdp_cpu": round(cold_cpu / getdp_cpu, 3),
                "fieldline_L_H": warm_L,
                "getdp_L_H": getdp_L,
                "load": round(os.getloadavg()[0], 2),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        server.close()
    med = {
        k: float(np.median([r[k] for r in rows]))
        for k in rows[0]
        if k.endswith("_s") or "_over_" in k
    }
    print(
        json.dumps(
            {
                "medians": med,
                "pairs": pairs,
                "load_before": load_before,
                "load_after": os.getloadavg(),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "command", choices=["mesh", "fieldline", "getdp", "compare", "pairs"]
    )
    parser.add_argument("--case", default="toroid", choices=["toroid", "team7"])
    parser.add_argument("--size", type=float, default=0.003)
    parser.add_argument(
        "--dir",
        type=Path,
        default=Path(os.environ.get("TMPDIR", "/tmp")) / "bench-magnetics",
    )
    parser.add_argument("--order", type=int, default=1)
    parser.add_argument(
        "--solver",
        default="auto",
        help="Fieldline's linearSolver: auto | direct | cg-amg (HX-AMG at order 1)",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=3,
        help="pairs: rounds of warm job, GetDP, cold process",
    )
    parser.add_argument("--freq", type=float, nargs="+", default=[50.0, 200.0])
    parser.add_argument(
        "--engine",
        type=Path,
        help="the engine folder to run (default: this checkout's engine/; the cold process of `pairs` gets it too)",
    )
    args = parser.parse_args()
    if args.engine is not None:
        global ENGINE
        ENGINE = args.engine.resolve()
        os.environ["FIELDLINE_BENCH_ENGINE"] = str(ENGINE)
    if (
        args.case == "team7"
    ):  # eddy currents: team7.py meshes and runs both codes (`compare`; --size: the plate's, m)
        from team7 import compare

        compare(
            args.size * 1e3 if args.size < 1 else args.size,
            max(args.order, 2),
            args.freq,
        )
        return
    if args.command == "mesh":
        mesh_toroid(args.size, args.dir)
        return
    if args.command == "pairs":
        run_pairs(args.dir, args.pairs, args.order, args.solver)
        return
    exact = toroid_exact()
    on_mesh = meshed_exact(args.dir)
    results = []
    if args.command in ("fieldline", "compare"):
        results.append(run_fieldline(args.dir, args.order, args.solver))
    if args.command in ("getdp", "compare"):
        results.append(run_getdp(args.dir))
    for r in results:
        r["exact_H"] = exact
        r["error"] = (r["inductance_H"] - exact) / exact
        r["meshed_exact_H"] = on_mesh
        r["error_vs_meshed"] = (r["inductance_H"] - on_mesh) / on_mesh
        print(json.dumps(r))


if __name__ == "__main__":
    main()
