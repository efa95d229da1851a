"""bench/thermal: heat conduction with Fieldline's engine and CalculiX 2.20 on one Netgen mesh.

Two cases, each with a closed form both codes are checked against:

- steady (`pipe`): a quarter of a thick pipe, ri ≤ r ≤ ro, 0 ≤ z ≤ LZ, conductivity K, uniform heat generation
  Q (W/m³), the bore held at T1, the outside cooled by convection (H, TINF); the cut planes and the ends are
  insulated, so T depends on r only: T = −Q r²/4K + C1 ln r + C2 with T(ri) = T1, −K T'(ro) = H (T(ro) − TINF).
  CalculiX: DC3D10, *BOUNDARY on DOF 11, *DFLUX BF (body flux), *FILM on the outer element faces.
- transient (`bar`): a square bar 0 ≤ x ≤ LX at T0, its end x = 0 raised to T1 at t = 0 and held there, every
  other face insulated: T = T1 + (T0 − T1) Σₙ 4/((2n+1)π) sin(λₙx) exp(−αλₙ²t), λₙ = (2n+1)π/2LX. 100 fixed
  backward-Euler steps in both codes (*HEAT TRANSFER, DIRECT; Fieldline timeScheme "implicit").

One mesh goes to both codes (quadratic tetrahedra, straight edges; Fieldline through its job interface,
`python -m fieldline_engine solve`). Errors are over the mesh vertices: max |T − T_exact| relative to the
temperature range, and the largest difference between the two codes.

Usage:
  .venv/bin/python bench/thermal/conduction.py run steady MAXH OUT [--repeat N] [--solver auto|direct|...]
  .venv/bin/python bench/thermal/conduction.py run transient MAXH OUT [--repeat N]
`run` prepares OUT/fieldline/job.json and OUT/ccx/*.inp, then times the two whole processes in turn (A B A B
with GNU time -v: wall seconds and peak RSS), takes the medians, checks the answers and adds a row to
bench/thermal/results.json. Threads: FIELDLINE_THREADS and OMP_NUM_THREADS (both set to --threads).
"""

import argparse
import json
import math
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "engine"))

from ccx_deck import (
    QuadraticTets,
    add_row,
    frd_blocks,
    nset,
    reuse,
    side_by_side,
    write_json,
)

# Steady pipe (stainless steel, SI units).
RI, RO, LZ = 0.05, 0.1, 0.1
K, Q, T1, H, TINF = 15.0, 1.0e6, 400.0, 500.0, 300.0
# Transient bar (steel).
LX, WB = 0.1, 0.02
RHO, CP, KB = 7850.0, 450.0, 50.0
T0, TB = 300.0, 400.0
STEPS, DT = 100, 1.5


def pipe_exact(r: np.ndarray) -> np.ndarray:
    # T = −Q r²/4K + C1 ln r + C2; T(ri) = T1; −K T'(ro) = H (T(ro) − TINF), T'(r) = −Q r/2K + C1/r.
    a = np.array(
        [
            [math.log(RI), 1.0],
            [-K / RO - H * math.log(RO), -H],
        ]
    )
    b = np.array(
        [
            T1 + Q * RI**2 / (4 * K),
            -K * Q * RO / (2 * K) - H * (TINF + Q * RO**2 / (4 * K)),
        ]
    )
    c1, c2 = np.linalg.solve(a, b)
    return -Q * r**2 / (4 * K) + c1 * np.log(r) + c2


def bar_exact(x: np.ndarray, t: float) -> np.ndarray:
    alpha = KB / (RHO * CP)
    s = np.zeros_like(x)
    for n in range(400):
        lam = (2 * n + 1) * math.pi / (2 * LX)
        s += (
            4
            / ((2 * n + 1) * math.pi)
            * np.sin(lam * x)
            * math.exp(-alpha * lam**2 * t)
        )
    return TB + (T0 - TB) * s


def geometry(case: str):
    from netgen import occ

    if case == "steady":
        ring = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, RO, LZ) - occ.Cylinder(
            occ.Pnt(0, 0, 0), occ.Z, RI, LZ
        )
        solid = ring * occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(RO, RO, LZ))
        for f in solid.faces:
            c = f.center
            r = math.hypot(c.x, c.y)
            if abs(c.x) < 1e-9 or abs(c.y) < 1e-9:
                f.name = "cut"
            elif abs(c.z) < 1e-9 or abs(c.z - LZ) < 1e-9:
                f.name = "end"
            else:  # the centroid of a curved face lies inside its arc
                f.name = "outer" if r > (RI + RO) / 2 else "inner"
        return solid
    solid = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(LX, WB, WB))
    for f in solid.faces:
        f.name = "hot" if abs(f.center.x) < 1e-9 else "side"
    return solid


def prepare(case: str, maxh: float, out: Path, solver: str) -> dict:
    import ngsolve as ng
    from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve
    from netgen import occ

    mesh = ng.Mesh(occ.OCCGeometry(geometry(case)).GenerateMesh(maxh=maxh))
    data, groups = mesh_data_from_ngsolve(mesh, "m")
    quad = QuadraticTets(data)
    if case == "steady":
        config = {
            "analysisType": "thermal",
            "meshOrder": 2,
            "linearSolver": solver,
            "thermalConductivity": K,
            "temperatureConditions": [{"faces": groups["inner"], "temperature": T1}],
            "convectionConditions": [
                {
                    "faces": groups["outer"],
                    "coefficient": H,
                    "ambientTemperature": TINF,
                }
            ],
            "heatSources": [{"region": 0, "powerDensity": Q}],
        }
        deck = steady_deck(quad, groups)
    else:
        config = {
            "analysisType": "thermal",
            "transient": True,
            "timeScheme": "implicit",
            "timeStep": DT,
            "endTime": STEPS * DT,
            "initialTemperature": T0,
            "animationFrames": 10,
            "meshOrder": 2,
            "linearSolver": solver,
            "thermalConductivity": KB,
            "density": RHO,
            "heatCapacity": CP,
            "temperatureConditions": [{"faces": groups["hot"], "temperature": TB}],
        }
        deck = transient_deck(quad, groups)
    (out / "fieldline").mkdir(parents=True, exist_ok=True)
    (out / "fieldline" / "job.json").write_text(
        json.dumps({"mesh_data": data, "config": config})
    )
    (out / "ccx").mkdir(parents=True, exist_ok=True)
    (out / "ccx" / "heat.inp").write_text(deck)
    # The same model with CalculiX's iterative solver (CG, incomplete-Cholesky preconditioner) in place of
    # its default SPOOLES factorisation.
    (out / "ccx" / "heat_ic.inp").write_text(
        re.sub(r"(\*HEAT TRANSFER[^\n]*)", r"\1, SOLVER=ITERATIVE CHOLESKY", deck)
    )
    meta = {
        "case": case,
        "maxh": maxh,
        "vertices": quad.nv,
        "tetrahedra": len(quad.tets),
        "nodes_quadratic": len(quad.points),
        "linearSolver": solver,
    }
    write_json(out / "meta.json", meta)
    print(json.dumps(meta))
    return meta


def _material(lines: list[str], k: float, rho: float, cp: float) -> None:
    lines += [
        "*MATERIAL, NAME=M",
        "*CONDUCTIVITY",
        f"{k:.8g}",
        "*DENSITY",
        f"{rho:.8g}",
        "*SPECIFIC HEAT",
        f"{cp:.8g}",
        "*SOLID SECTION, ELSET=EALL, MATERIAL=M",
    ]


def steady_deck(quad: QuadraticTets, groups: dict) -> str:
    lines = ["*HEADING", "Fieldline bench: steady conduction in a pipe (DC3D10)"]
    lines += quad.deck_mesh("DC3D10")
    lines += nset("INNER", quad.face_nodes(groups["inner"]))
    _material(lines, K, 7900.0, 500.0)
    lines += ["*STEP", "*HEAT TRANSFER, STEADY STATE", "1., 1."]
    lines += ["*BOUNDARY", f"INNER, 11, 11, {T1:.8g}"]
    lines += ["*DFLUX", f"EALL, BF, {Q:.8g}"]
    lines += ["*FILM"]
    lines += [
        f"{e}, F{face}, {TINF:.8g}, {H:.8g}"
        for e, face in quad.element_faces(groups["outer"])
    ]
    lines += ["*NODE FILE", "NT", "*END STEP"]
    return "\n".join(lines) + "\n"


def transient_deck(quad: QuadraticTets, groups: dict) -> str:
    lines = ["*HEADING", "Fieldline bench: transient conduction in a bar (DC3D10)"]
    lines += quad.deck_mesh("DC3D10")
    lines += nset("HOT", quad.face_nodes(groups["hot"]))
    _material(lines, KB, RHO, CP)
    # The end is at TB from the first increment on (a step, not CalculiX's default ramp).
    lines += ["*AMPLITUDE, NAME=HOLD", "0., 1., 1.e9, 1."]
    lines += ["*INITIAL CONDITIONS, TYPE=TEMPERATURE", f"NALL, {T0:.8g}"]
    lines += [
        f"*STEP, INC={STEPS + 10}",
        "*HEAT TRANSFER, DIRECT",
        f"{DT:.8g}, {STEPS * DT:.8g}",
    ]
    lines += ["*BOUNDARY, AMPLITUDE=HOLD", f"HOT, 11, 11, {TB:.8g}"]
    lines += [f"*NODE FILE, FREQUENCY={STEPS // 10}", "NT", "*END STEP"]
    return "\n".join(lines) + "\n"


def accuracy(out: Path, deck: str = "heat") -> dict:
    meta = json.loads((out / "meta.json").read_text())
    res = json.loads((out / "fieldline" / "results.json").read_text())
    nv = meta["vertices"]
    ours = np.asarray(res["fields"]["temperature"]["data"], dtype=float)[:nv]
    theirs = frd_blocks(out / "ccx" / f"{deck}.frd", "NDTEMP", 1)[-1][:nv, 0]
    vertices = np.asarray(
        json.loads((out / "fieldline" / "job.json").read_text())["mesh_data"][
            "vertices"
        ]
    )
    if meta["case"] == "steady":
        exact = pipe_exact(np.hypot(vertices[:, 0], vertices[:, 1]))
    else:
        exact = bar_exact(vertices[:, 0], STEPS * DT)
    span = float(np.max(exact) - np.min(exact)) if meta["case"] == "steady" else TB - T0
    return {
        "fieldline_dofs": res["solver_info"]["matrix_size"],
        "fieldline_solver": res["solver_info"].get("linear_solver"),
        "fieldline_max_error_rel": float(np.max(np.abs(ours - exact)) / span),
        "calculix_max_error_rel": float(np.max(np.abs(theirs - exact)) / span),
        "codes_max_difference_rel": float(np.max(np.abs(ours - theirs)) / span),
        "temperature_span_K": span,
        "fieldline_T_max": float(np.max(ours)),
        "calculix_T_max": float(np.max(theirs)),
        "exact_T_max": float(np.max(exact)),
    }


PEER_DECKS = {"SPOOLES": "heat", "ITERATIVE CHOLESKY": "heat_ic"}


def run(args) -> None:
    out = Path(args.out)
    meta = reuse(
        out, {"case": args.case, "maxh": args.maxh}, {"linearSolver": args.solver}
    ) or prepare(args.case, args.maxh, out, args.solver)
    deck = PEER_DECKS[args.peer]
    row = {**meta, "peer": f"CalculiX 2.20, {args.peer}"}
    row.update(side_by_side(out, deck, args.repeat, args.threads))
    row.update(accuracy(out, deck))
    print(json.dumps(row, indent=2))
    add_row(
        HERE / "results.json", row, ("case", "maxh", "linearSolver", "peer", "threads")
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("case", choices=["steady", "transient"])
    p.add_argument("maxh", type=float)
    p.add_argument("out")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--solver", default="auto")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--peer", choices=sorted(PEER_DECKS), default="SPOOLES")
    p = sub.add_parser("prepare")
    p.add_argument("case", choices=["steady", "transient"])
    p.add_argument("maxh", type=float)
    p.add_argument("out")
    p.add_argument("--solver", default="auto")
    p = sub.add_parser("report")
    p.add_argument("out")
    args = parser.parse_args()
    if args.command == "run":
        run(args)
    elif args.command == "prepare":
        prepare(args.case, args.maxh, Path(args.out), args.solver)
    else:
        print(json.dumps(accuracy(Path(args.out)), indent=2))
