"""bench/vibration: the first 10 natural frequencies of a cantilever with Fieldline's engine and CalculiX 2.20
on one Netgen mesh.

The cantilever: a steel bar of square section A × A and length L = 20 A, clamped at x = 0 (all three
displacements fixed on that face), free elsewhere. Its first ten modes, with closed forms:
- bending, in y and z alike (a pair each): f = (βL)²/(2π L²) √(EI/ρA), βL = 1.8751, 4.6941, 7.8548, 10.9955
  (Euler–Bernoulli; a slender-beam theory, so the higher modes of the real solid are lower: shear and
  rotary inertia, the Timoshenko correction, grow with (n·A/L)²);
- torsion: f = √(G J / ρ Ip) / 4L, J = 0.1406 A⁴ (Saint-Venant, square), Ip = A⁴/6 (the clamp also stops
  warping, which stiffens the solid a little);
- axial: f = √(E/ρ) / 4L (a rod; Poisson's lateral inertia lowers it slightly).
Both codes solve the same quadratic tetrahedra (Fieldline `analysisType: "modal"`, meshOrder 2, through
`python -m fieldline_engine solve`; CalculiX C3D10 with *FREQUENCY, 10, shift-and-invert Lanczos on its
SPOOLES factor), so their frequencies should agree to the eigen solvers' tolerance.

Usage:
  .venv/bin/python bench/vibration/modes.py run MAXH OUT [--repeat N] [--threads T]
`run` prepares OUT/fieldline/job.json and OUT/ccx/modes.inp (or reuses them for the same MAXH), times the two
whole processes in turn (A B A B, GNU time -v), compares the frequencies and adds a row to
bench/vibration/results.json.
"""

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "engine"))

from ccx_deck import (
    QuadraticTets,
    add_row,
    dat_frequencies,
    nset,
    reuse,
    side_by_side,
    write_json,
)

A, L = 0.05, 1.0
E, NU, RHO = 210e9, 0.3, 7850.0
MODES = 10


def closed_form() -> list[tuple[str, float]]:
    """The first ten modes of the cantilever by beam and rod theory, ascending: (kind, Hz)."""
    bending = math.sqrt(E * (A**4 / 12) / (RHO * A**2))
    out = []
    for n, beta_l in enumerate((1.87510407, 4.69409113, 7.85475744, 10.99554073)):
        f = beta_l**2 / (2 * math.pi * L**2) * bending
        out += [(f"bending {n + 1} (y)", f), (f"bending {n + 1} (z)", f)]
    g = E / (2 * (1 + NU))
    out.append(("torsion 1", math.sqrt(g * 0.1406 * A**4 / (RHO * A**4 / 6)) / (4 * L)))
    out.append(("axial 1", math.sqrt(E / RHO) / (4 * L)))
    return sorted(out, key=lambda m: m[1])[:MODES]


def timoshenko_bending(count: int = 4, elements: int = 4000) -> list[float]:
    """The cantilever's first bending frequencies (Hz) by Timoshenko beam theory (shear and rotary inertia;
    Cowper's shear coefficient for a square section), solved on a fine 1-D mesh of linear elements with
    one-point shear integration: a beam-theory reference for the higher bending modes, where
    Euler–Bernoulli's slender-beam assumption no longer holds."""
    import scipy.sparse as sp
    from scipy.sparse.linalg import eigsh

    h = L / elements
    area, inertia = A**2, A**4 / 12
    g = E / (2 * (1 + NU))
    kappa = 10 * (1 + NU) / (12 + 11 * NU)
    # Element matrices over (w1, θ1, w2, θ2).
    b_shear = np.array([-1 / h, -0.5, 1 / h, -0.5])  # w' − θ at the midpoint
    b_bend = np.array([0, -1 / h, 0, 1 / h])  # θ'
    ke = kappa * g * area * h * np.outer(b_shear, b_shear)
    ke += E * inertia * h * np.outer(b_bend, b_bend)
    consistent = np.array([[2, 1], [1, 2]]) * h / 6
    me = np.zeros((4, 4))
    me[np.ix_([0, 2], [0, 2])] = RHO * area * consistent
    me[np.ix_([1, 3], [1, 3])] = RHO * inertia * consistent
    n = 2 * (elements + 1)
    rows, cols, kv, mv = [], [], [], []
    for e in range(elements):
        dofs = np.arange(2 * e, 2 * e + 4)
        rows += np.repeat(dofs, 4).tolist()
        cols += np.tile(dofs, 4).tolist()
        kv += ke.ravel().tolist()
        mv += me.ravel().tolist()
    K = sp.csc_matrix((kv, (rows, cols)), shape=(n, n))[
        2:, 2:
    ]  # clamped: w = θ = 0 at x = 0
    M = sp.csc_matrix((mv, (rows, cols)), shape=(n, n))[2:, 2:]
    values = eigsh(K, k=count, M=M, sigma=0, which="LM")[0]
    return sorted(math.sqrt(v) / (2 * math.pi) for v in values)


def prepare(maxh: float, out: Path) -> dict:
    import ngsolve as ng
    from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve
    from netgen import occ

    solid = occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(L, A, A))
    for f in solid.faces:
        f.name = "clamp" if abs(f.center.x) < 1e-9 else "free"
    mesh = ng.Mesh(occ.OCCGeometry(solid).GenerateMesh(maxh=maxh))
    data, groups = mesh_data_from_ngsolve(mesh, "m")
    quad = QuadraticTets(data)
    config = {
        "analysisType": "modal",
        "modalNumModes": MODES,
        "meshOrder": 2,
        "youngsModulus": E,
        "poissonRatio": NU,
        "density": RHO,
        "fixedSupports": [{"faces": groups["clamp"]}],
    }
    lines = ["*HEADING", "Fieldline bench: cantilever modes (C3D10)"]
    lines += quad.deck_mesh("C3D10")
    lines += nset("CLAMP", quad.face_nodes(groups["clamp"]))
    lines += [
        "*MATERIAL, NAME=STEEL",
        "*ELASTIC",
        f"{E:.8g}, {NU}",
        "*DENSITY",
        f"{RHO:.8g}",
        "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL",
        "*BOUNDARY",
        "CLAMP, 1, 3",
        "*STEP",
        "*FREQUENCY",
        f"{MODES}",
        "*NODE FILE",
        "U",
        "*END STEP",
    ]
    (out / "fieldline").mkdir(parents=True, exist_ok=True)
    (out / "fieldline" / "job.json").write_text(
        json.dumps({"mesh_data": data, "config": config})
    )
    (out / "ccx").mkdir(parents=True, exist_ok=True)
    (out / "ccx" / "modes.inp").write_text("\n".join(lines) + "\n")
    meta = {
        "case": "cantilever modes",
        "maxh": maxh,
        "vertices": quad.nv,
        "tetrahedra": len(quad.tets),
        "nodes_quadratic": len(quad.points),
    }
    write_json(out / "meta.json", meta)
    print(json.dumps(meta), flush=True)
    return meta


def accuracy(out: Path) -> dict:
    res = json.loads((out / "fieldline" / "results.json").read_text())
    ours = np.array([m["frequency"] for m in res["modes"] if not m["rigid_body"]])
    theirs = dat_frequencies(out / "ccx" / "modes.dat")[:MODES]
    exact = closed_form()
    ref = np.array([f for _, f in exact])
    beam = timoshenko_bending()
    timo = np.array(
        [
            beam[int(kind.split()[1]) - 1] if kind.startswith("bending") else f
            for kind, f in exact
        ]
    )
    return {
        "fieldline_dofs": res["solver_info"]["matrix_size"],
        "fieldline_max_residual": res["solver_info"].get("max_residual"),
        "modes": [
            {
                "kind": kind,
                "closed_form_Hz": round(f, 4),
                "timoshenko_Hz": round(float(t), 4)
                if kind.startswith("bending")
                else None,
                "fieldline_Hz": round(float(a), 4),
                "calculix_Hz": round(float(b), 4),
            }
            for (kind, f), t, a, b in zip(exact, timo, ours, theirs, strict=True)
        ],
        "codes_max_difference_rel": float(np.max(np.abs(ours / theirs - 1))),
        "fieldline_error_bending1_rel": float(ours[0] / ref[0] - 1),
        "calculix_error_bending1_rel": float(theirs[0] / ref[0] - 1),
        "fieldline_error_max_rel": float(np.max(np.abs(ours / ref - 1))),
        "calculix_error_max_rel": float(np.max(np.abs(theirs / ref - 1))),
        # Bending against Timoshenko, torsion and axial against their closed forms.
        "fieldline_error_vs_timoshenko_max_rel": float(np.max(np.abs(ours / timo - 1))),
        "calculix_error_vs_timoshenko_max_rel": float(
            np.max(np.abs(theirs / timo - 1))
        ),
    }


def run(args) -> None:
    out = Path(args.out)
    meta = reuse(out, {"maxh": args.maxh}, {}) or prepare(args.maxh, out)
    row = {**meta, **side_by_side(out, "modes", args.repeat, args.threads)}
    row.update(accuracy(out))
    print(json.dumps(row, indent=2))
    add_row(HERE / "results.json", row, ("case", "maxh", "threads"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("maxh", type=float)
    p.add_argument("out")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--threads", type=int, default=1)
    p = sub.add_parser("prepare")
    p.add_argument("maxh", type=float)
    p.add_argument("out")
    p = sub.add_parser("report")
    p.add_argument("out")
    args = parser.parse_args()
    if args.command == "run":
        run(args)
    elif args.command == "prepare":
        prepare(args.maxh, Path(args.out))
    else:
        print(json.dumps(accuracy(Path(args.out)), indent=2))
