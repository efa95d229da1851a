"""bench/meshing — tetrahedra per second and peak memory of gmsh HXT, gmsh Delaunay and Netgen.

The same CAD model (a WR-90 waveguide section with a dielectric post: two bodies, curved faces,
fragmented into a conformal mesh) is meshed by each mesher at three element sizes chosen for about
100 k, 1 M and 3 M tetrahedra, all in one run. Each mesh runs in a fresh process through the engine's
own mesher code (`fieldline_engine.geometry.gmsh_mesher` / `netgen_mesher`, the code the API runs),
which reports wall time, CPU time, peak resident memory and the quality of what it made.

    .venv/bin/python bench/meshing/bench.py            # all three sizes (the 3 M case takes minutes)
    .venv/bin/python bench/meshing/bench.py --quick    # the 100 k size only

Results: bench/meshing/out/results.json and a Markdown table on stdout.
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
OUT = HERE / "out"
MESHERS = ("hxt", "delaunay", "netgen")
# Element sizes (mm) for ~100 k, ~1 M and ~3 M tetrahedra with gmsh on this model.
SIZES = {"100k": 0.69, "1M": 0.32, "3M": 0.222}
RUN_TIMEOUT_S = 3600


def make_model(path: Path) -> None:
    from fieldline_engine.testing.shapes import write_step_shapes
    from netgen.occ import Box, Cylinder, Pnt, Y

    air = Box(Pnt(0, 0, 0), Pnt(22.86, 10.16, 30.0))
    post = Cylinder(Pnt(11.43, 0, 15.0), Y, r=2.0, h=10.16)
    write_step_shapes(path, [("air", air), ("post", post)])


def one_run(mesher: str, size: float, step: Path) -> dict:
    """Runs inside the child process: mesh, then report time, memory and quality."""
    from fieldline_engine.geometry import gmsh_mesher, netgen_mesher
    from fieldline_engine.geometry.options import mesh_options
    from fieldline_engine.geometry.quality import quality_report
    from fieldline_engine.geometry.volume_mesh import finalize

    threads = len(os.sched_getaffinity(0))
    opts = mesh_options({"meshMaxSize": size}, 40.0, ["air", "post"], threads)
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    if mesher == "netgen":
        mesh = netgen_mesher.mesh_cad([step], "mm", opts, None)
    else:
        with gmsh_mesher.gmsh_session(threads=threads):
            mesh = gmsh_mesher.mesh_cad([step], "mm", opts, mesher)
    seconds = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    mesh = finalize(
        mesh
    )  # the same validity checks the API applies (positive volumes, watertight)
    q = quality_report(mesh.vertices, mesh.tets)
    return {
        "mesher": mesher,
        "size_mm": size,
        "tetrahedra": len(mesh.tets),
        "vertices": len(mesh.vertices),
        "seconds": seconds,
        "cpu_seconds": cpu + children.ru_utime + children.ru_stime,
        "peak_rss_mb": max(usage.ru_maxrss, children.ru_maxrss) / 1024,
        "threads": threads,
        "min_dihedral_deg": q["min_dihedral_deg"],
        "avg_quality": q["avg_quality"],
        "slivers": q["slivers"],
        "volume_mm3": q["volume"],
    }


def run_child(mesher: str, size: float, step: Path) -> dict:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO / "engine"),
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
    cmd = [sys.executable, str(Path(__file__)), "--one", mesher, str(size), str(step)]
    try:
        proc = subprocess.run(
            cmd,
            check=False,
            capture_output=True,
            text=True,
            env=env,
            timeout=RUN_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return {
            "mesher": mesher,
            "size_mm": size,
            "error": f"timed out after {RUN_TIMEOUT_S} s",
        }
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {
            "mesher": mesher,
            "size_mm": size,
            "error": proc.stderr.strip().splitlines()[-1:] or "failed",
        }
    return json.loads(lines[-1])


def table(rows: list[dict]) -> str:
    out = [
        "| Size | Mesher | Tetrahedra | Wall s | CPU s | Tets/s (wall) | Tets/s (CPU) | Peak RSS MB | Min dihedral ° | Avg quality |",
        "| ---- | ------ | ---------: | -----: | ----: | ------------: | -----------: | ----------: | -------------: | ----------: |",
    ]
    for r in rows:
        if "error" in r:
            out.append(
                f"| {r['label']} | {r['mesher']} | — | — | — | — | — | — | — | {r['error']} |"
            )
            continue
        out.append(
            f"| {r['label']} | {r['mesher']} | {r['tetrahedra']:,} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} | "
            f"{r['tetrahedra'] / r['seconds']:,.0f} | {r['tetrahedra'] / r['cpu_seconds']:,.0f} | "
            f"{r['peak_rss_mb']:,.0f} | {r['min_dihedral_deg']:.1f} | {r['avg_quality']:.3f} |"
        )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="the 100 k size only")
    parser.add_argument(
        "--one", nargs=3, metavar=("MESHER", "SIZE", "STEP"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.one:
        mesher, size, step = args.one
        sys.stdout.flush()
        print(json.dumps(one_run(mesher, float(size), Path(step))), flush=True)
        return
    OUT.mkdir(exist_ok=True)
    step = OUT / "wr90_post.step"
    make_model(step)
    rows = []
    sizes = {"100k": SIZES["100k"]} if args.quick else SIZES
    for label, size in sizes.items():
        for mesher in MESHERS:
            r = run_child(mesher, size, step)
            r["label"] = label
            rows.append(r)
            print(json.dumps(r), flush=True)
    load = os.getloadavg()
    result = {
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "load_average": load,
        "runs": rows,
    }
    (OUT / "results.json").write_text(json.dumps(result, indent=1))
    print(table(rows))
    print(
        f"\nload average at the end: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    main()
