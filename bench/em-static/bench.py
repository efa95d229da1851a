"""bench/em-static: DOFs per second for assembly and solve of the electrostatic problem, Fieldline's
NGSolve path against scikit-fem, on the same meshes and problem in the same run.

Problem: ∇·(ε∇φ) = 0 on the unit cube, φ = x² − y² (harmonic) on the whole boundary, on a structured
tetrahedral mesh (n³ cubes, 6 Kuhn tetrahedra each; the same arrays go to both codes). Rungs:
P1 at n = 46 (1.0e5 DOFs) and n = 99 (1.0e6 DOFs), P2 at n = 71 (3.0e6 DOFs; P1 at that size needs
17.5 M tetrahedra, which scikit-fem cannot hold in 24 GB).

Each code runs in its own process (peak memory is per code), single-threaded unless BENCH_THREADS says
otherwise for NGSolve:
- Fieldline/NGSolve: the engine's mesh import (build_ngsolve_mesh) timed alone, H1 of the rung's order,
  BilinearForm.Assemble (matrix + right-hand side) timed alone; then the engine's LinearSolver for
  `linearSolver: cg-amg` (core/linear_solve.py: classical AMG, core/ruge_stuben.py, for P1; Gauss–Seidel around
  pyamg on the vertex block for P2) — its prepare() is the set-up, its CG to a relative residual of 1e-8.
- scikit-fem 12.0.2: `asm(laplace, basis)` timed alone; then `condense` + pyamg 5.4.1 smoothed
  aggregation set-up + CG (the same 1e-8), the usual recipe for large scikit-fem problems.
Assembly DOF/s = DOFs / assembly seconds; solve DOF/s = DOFs / (preconditioner set-up + CG seconds),
in CPU seconds of the worker process (wall seconds are recorded too).
Both solutions are checked against the exact potential at the vertices.

Usage: .venv/bin/python bench/em-static/bench.py [--quick] [--rung ORDER:N ...] (needs the bench extras:
pip install -e 'engine[bench]'). Results go to bench/em-static/out/results.json.
"""

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Self

import numpy as np

HERE = Path(__file__).resolve().parent
ENGINE = HERE.parents[1] / "engine"
RUNGS = [(1, 46), (1, 99), (2, 71)]
QUICK_RUNGS = [(1, 20), (2, 12)]
TOLERANCE = 1e-8
# NGSolve threads (BENCH_THREADS, default 1, like scikit-fem): its TaskManager spins, and on a shared,
# oversubscribed machine extra threads make it slower, not faster.
THREADS = int(os.environ.get("BENCH_THREADS", "1"))
_KUHN = np.array(
    [[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]]
)


def structured_cube(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vertices, tetrahedra and boundary triangles of the unit cube split into n³ cubes."""
    xs = np.linspace(0.0, 1.0, n + 1)
    X, Y, Z = np.meshgrid(xs, xs, xs, indexing="ij")
    vertices = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)
    I, J, K = (
        a.ravel()
        for a in np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    )
    corner = np.stack(
        [
            ((I + (b & 1)) * (n + 1) + J + ((b >> 1) & 1)) * (n + 1)
            + K
            + ((b >> 2) & 1)
            for b in range(8)
        ],
        axis=1,
    )
    tets = corner[:, _KUHN].reshape(-1, 4)
    del corner
    # Boundary triangles: faces of tetrahedra whose three vertices share a boundary plane.
    on_layer = np.any((vertices[tets] == 0) | (vertices[tets] == 1), axis=(1, 2))
    tris = tets[on_layer][:, [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]]].reshape(
        -1, 3
    )
    coords = vertices[tris]
    boundary = np.zeros(len(tris), dtype=bool)
    for axis in range(3):
        for value in (0.0, 1.0):
            boundary |= np.all(coords[:, :, axis] == value, axis=1)
    return vertices, tets, tris[boundary]


class Clock:
    """CPU seconds of this process (the figure of merit: both codes run single-threaded, and on a shared,
    oversubscribed machine wall time measures the neighbours), plus wall seconds for reference."""

    def __enter__(self) -> Self:
        self.cpu0, self.wall0 = time.process_time(), time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cpu = time.process_time() - self.cpu0
        self.wall = time.perf_counter() - self.wall0


def exact(points: np.ndarray) -> np.ndarray:
    return points[:, 0] ** 2 - points[:, 1] ** 2


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run_ngsolve(order: int, n: int) -> dict:
    """The engine's own path: mesh import (mesh/ngsolve_mesh.py), the form PotentialSolver assembles and the
    LinearSolver it builds for `linearSolver: cg-amg` (core/linear_solve.py picks the preconditioner)."""
    import ngsolve as ng
    from fieldline_engine.core.h1_scalar import assemble
    from fieldline_engine.core.linear_solve import LinearSolver
    from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh
    from fieldline_engine.mesh.tet_model import TetModel

    ng.SetNumThreads(THREADS)
    vertices, tets, tris = structured_cube(n)
    model = TetModel(
        vertices=vertices,
        tetrahedra=tets,
        regions=np.zeros(len(tets), dtype=np.int64),
        region_names=["cube"],
        faces=tris,
        face_inner_region=np.zeros(len(tris), dtype=np.int64),
        face_outer_region=np.full(len(tris), -1, dtype=np.int64),
        unit_scale=1.0,
    )
    with Clock() as mesh_import:
        mesh = build_ngsolve_mesh(model, np.full(len(tris), "boundary", dtype=object))
    del model, tets, tris

    fes = ng.H1(mesh, order=order, dirichlet="boundary", wb_withedges=False)
    u, v = fes.TnT()
    a = ng.BilinearForm(fes, symmetric=True)
    eps = mesh.MaterialCF(
        {"body0": 8.854e-12}, default=8.854e-12
    )  # em/materials.py's per-body coefficient
    a += ng.InnerProduct(eps * ng.grad(u), ng.grad(v)) * ng.dx
    f = ng.LinearForm(fes)
    solver = LinearSolver(a, fes, "cg-amg", TOLERANCE, 1000)
    with ng.TaskManager():
        with (
            Clock() as assembly
        ):  # what PotentialSolver runs: the closed-form P1 matrix, or NGSolve's assembly
            assemble(a, f, solver, mesh, [8.854e-12] if order == 1 else None)
        with Clock() as setup:
            solver.prepare(fes.FreeDofs())
        g = ng.GridFunction(fes)
        g.Set(ng.x**2 - ng.y**2, ng.BND)
        if order == 1:  # nodal Dirichlet values, as scikit-fem sets them (Set projects)
            fixed = ~np.array(fes.FreeDofs(), dtype=bool)
            g.vec.FV().NumPy()[fixed] = exact(vertices)[fixed]
        rhs = g.vec.CreateVector()
        rhs.data = f.vec - solver.mat * g.vec
        with Clock() as cg:
            solver.solve(rhs, g)
    error = np.max(np.abs(g.vec.FV().NumPy()[: mesh.nv] - exact(vertices)))
    return {
        "code": "fieldline-ngsolve",
        "order": order,
        "n": n,
        "dofs": fes.ndof,
        "elements": mesh.ne,
        "preconditioner": solver.report.preconditioner,
        "mesh_build_s": mesh_import.cpu,
        "assembly_s": assembly.cpu,
        "preconditioner_s": setup.cpu,
        "cg_s": cg.cpu,
        "wall_assembly_s": assembly.wall,
        "wall_solve_s": setup.wall + cg.wall,
        "iterations": max(solver.report.iterations),
        "max_vertex_error": float(error),
        "threads": THREADS,
        "peak_rss_mb": peak_rss_mb(),
    }


def run_skfem(order: int, n: int) -> dict:
    import pyamg
    import scipy.sparse.linalg as spla
    from skfem import Basis, ElementTetP1, ElementTetP2, MeshTet, asm, condense
    from skfem.models.poisson import laplace

    vertices, tets, _ = structured_cube(n)
    with Clock() as mesh_import:
        mesh = MeshTet(vertices.T.copy(), tets.T.copy())
        basis = Basis(mesh, ElementTetP1() if order == 1 else ElementTetP2())
    del tets
    with Clock() as assembly:
        A = asm(laplace, basis) * 8.854e-12
    x = basis.zeros()
    boundary = basis.get_dofs().all()
    x[boundary] = exact(basis.doflocs[:, boundary].T)
    with Clock() as setup:
        A_ii, b_i, _, interior = condense(A, np.zeros_like(x), x=x, D=boundary)
        del A
        ml = pyamg.smoothed_aggregation_solver(A_ii.tocsr())
    residuals: list[float] = []
    with Clock() as cg:
        x_i = ml.solve(
            b_i, tol=TOLERANCE, accel="cg", maxiter=1000, residuals=residuals
        )
    x[interior] = x_i
    _ = spla  # scipy's CG is what pyamg's accel="cg" wraps
    error = np.max(np.abs(x[: mesh.p.shape[1]] - exact(vertices)))
    return {
        "code": "scikit-fem",
        "order": order,
        "n": n,
        "dofs": int(basis.N),
        "elements": int(mesh.t.shape[1]),
        "mesh_build_s": mesh_import.cpu,
        "assembly_s": assembly.cpu,
        "preconditioner_s": setup.cpu,
        "cg_s": cg.cpu,
        "wall_assembly_s": assembly.wall,
        "wall_solve_s": setup.wall + cg.wall,
        "iterations": len(residuals) - 1,
        "max_vertex_error": float(error),
        "threads": 1,
        "peak_rss_mb": peak_rss_mb(),
    }


def worker(code: str, order: int, n: int) -> None:
    import pyamg  # noqa: F401 - imported before any clock starts, in both workers (SciPy's start-up is ~0.3 s)

    result = run_ngsolve(order, n) if code == "ngsolve" else run_skfem(order, n)
    print("RESULT " + json.dumps(result), flush=True)


def run_rung(code: str, order: int, n: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ENGINE), "OPENBLAS_NUM_THREADS": "1"}
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", code, str(order), str(n)],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=3600,
    )
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result = json.loads(line[7:])
            result["wall_s"] = time.perf_counter() - started
            return result
    tail = (proc.stderr or "")[-400:]
    return {
        "code": code,
        "order": order,
        "n": n,
        "failed": f"exit {proc.returncode}: {tail}",
    }


def main() -> None:
    picked = [
        tuple(int(part) for part in sys.argv[i + 1].split(":"))
        for i, arg in enumerate(sys.argv[:-1])
        if arg == "--rung"
    ]
    rungs = picked or (QUICK_RUNGS if "--quick" in sys.argv else RUNGS)
    rows = []
    for order, n in rungs:
        pair = {code: run_rung(code, order, n) for code in ("ngsolve", "skfem")}
        rows.append(pair)
        for r in pair.values():
            if "failed" in r:
                print(f"P{order} n={n} {r['code']}: FAILED {r['failed']}")
                continue
            solve = r["preconditioner_s"] + r["cg_s"]
            print(
                f"P{order} n={n} {r['code']:>18}: {r['dofs']:>9} DOFs  mesh {r['mesh_build_s']:6.2f} s  assembly {r['assembly_s']:7.2f} s CPU "
                f"({r['dofs'] / r['assembly_s']:.3g} DOF/s)  solve {solve:7.2f} s CPU ({r['dofs'] / solve:.3g} DOF/s, "
                f"{r['iterations']} it)  err {r['max_vertex_error']:.1e}  peak {r['peak_rss_mb']:.0f} MB",
                flush=True,
            )
        ng_r, sk_r = pair["ngsolve"], pair["skfem"]
        if "failed" not in ng_r and "failed" not in sk_r:
            a_ratio = (ng_r["dofs"] / ng_r["assembly_s"]) / (
                sk_r["dofs"] / sk_r["assembly_s"]
            )
            s_ratio = (sk_r["preconditioner_s"] + sk_r["cg_s"]) / (
                ng_r["preconditioner_s"] + ng_r["cg_s"]
            )
            print(
                f"    ratio Fieldline/scikit-fem DOF/s: assembly {a_ratio:.1f}x, solve {s_ratio:.1f}x",
                flush=True,
            )
    out = HERE / "out"
    out.mkdir(exist_ok=True)
    (out / "results.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        main()
