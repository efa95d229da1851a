"""bench/coupled: the first frequency of a pinned–pinned steel strip under axial tension, Fieldline's prestressed
modal job against CalculiX 2.20 on one quadratic mesh.

The strip: L = 1 m, W = 0.06 m, H = 0.02 m (bending about its weak axis, in z), E = 200 GPa, ν = 0.3, ρ = 7850
kg/m³, pinned at both ends (u_z = 0 along the mid-height line of each end face, u_y at one point of each line,
u_x at the centre) and pulled by equal and opposite end forces P = P_cr = π²EI/L² (uniform traction). Closed
form: f_n(P) = f_n(0) √(1 + P L²/(n² π² E I)), f_n(0) = (n² π / 2L²) √(EI/ρA) (Euler–Bernoulli), so the first
frequency rises by √2, from 45.76 Hz to 64.71 Hz. The error of a run is that of its lowest frequency.

One structured mesh of tetrahedra (`box_mesh`, straight-sided) goes to every run:
- OUT/fieldline: `analysisType: "modal"`, `prestress: true`, meshOrder 2 — the static solve with the end
  forces, then the modes of K + K_σ, in one job;
- OUT/modal: the same modal run without the prestress (the closed form's f_n(0); what the prestress costs);
- OUT/ccx: CalculiX C3D10, a `*STATIC` step with the end tractions as `*DLOAD` on element faces, then
  `*STEP, PERTURBATION` with `*FREQUENCY` (the stiffness of the static step's stress state).

Usage:
  .venv/bin/python bench/coupled/prestressed_beam.py prepare NXxNYxNZ OUT   # e.g. 20x2x2
  .venv/bin/python bench/coupled/prestressed_beam.py report OUT
  .venv/bin/python bench/coupled/prestressed_beam.py ladder OUT CELLS...   # one run of each per mesh
Time whole processes side by side (GNU time -v for peak memory):
  (cd OUT/fieldline && python -m fieldline_engine solve --job .)   |   (cd OUT/ccx && ccx -i beam)
"""

import itertools
import json
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "engine"))

from ccx_deck import QuadraticTets, dat_frequencies, nset, timed, write_json
from cylinder import engine_env

L, W, H = 1.0, 0.06, 0.02
E, NU, RHO = 200e9, 0.3, 7850.0
I = W * H**3 / 12
AREA = W * H
P = (
    math.pi**2 * E * I / L**2
)  # Euler's first buckling load; as a tension it raises f_1 by √2
MODES = 3
RUNS = ("fieldline", "modal", "ccx")


def first_frequency_exact(load: float = P) -> float:
    return (
        math.pi
        / (2 * L**2)
        * math.sqrt(E * I / (RHO * AREA))
        * math.sqrt(1 + load * L**2 / (math.pi**2 * E * I))
    )


def parse_cells(text: str) -> tuple[int, int, int]:
    nx, ny, nz = (int(x) for x in text.lower().split("x"))
    if nz % 2:
        raise SystemExit(
            "NZ must be even: the pins sit on the mid-height line of each end face"
        )
    return nx, ny, nz


def end_line(v: np.ndarray, x: float) -> np.ndarray:
    on = np.flatnonzero(np.isclose(v[:, 0], x) & np.isclose(v[:, 2], H / 2))
    return on[np.argsort(v[on, 1])]


def prepare(cells_text: str, out: Path) -> dict:
    from fieldline_engine.testing.meshes import box_mesh, faces_on_plane

    cells = parse_cells(cells_text)
    data = box_mesh((L, W, H), cells)
    v = np.asarray(data["vertices"])
    left, right = end_line(v, 0.0), end_line(v, L)
    centre = int(np.argmin(np.linalg.norm(v - [L / 2, W / 2, H / 2], axis=1)))
    ends = (faces_on_plane(data, 0, 0.0), faces_on_plane(data, 0, L))

    def pairs(ids):
        return [[int(p), int(q)] for p, q in itertools.pairwise(ids)]

    modal = {
        "analysisType": "modal",
        "meshOrder": 2,
        "modalNumModes": MODES,
        "youngsModulus": E,
        "poissonRatio": NU,
        "density": RHO,
        "displacementConditions": [
            {"edges": pairs(left), "displacement": [None, None, 0]},
            {"edges": pairs(right), "displacement": [None, None, 0]},
            {"points": [int(left[0]), int(right[0])], "displacement": [None, 0, None]},
            {"points": [centre], "displacement": [0, None, None]},
        ],
    }
    prestressed = {
        **modal,
        "prestress": True,
        "forceLoads": [
            {"faces": ends[0], "force": [-P, 0, 0], "name": "left end"},
            {"faces": ends[1], "force": [P, 0, 0], "name": "right end"},
        ],
    }
    for name in RUNS:
        (out / name).mkdir(parents=True, exist_ok=True)
    (out / "fieldline" / "job.json").write_text(
        json.dumps({"mesh_data": data, "config": prestressed})
    )
    (out / "modal" / "job.json").write_text(
        json.dumps({"mesh_data": data, "config": modal})
    )

    quad = QuadraticTets(data)
    (out / "ccx" / "beam.inp").write_text(ccx_deck(quad, left, right, centre, ends))
    meta = {
        "case": "prestressed pinned strip, first frequency",
        "cells": "x".join(str(c) for c in cells),
        "vertices": quad.nv,
        "tetrahedra": len(quad.tets),
        "nodes_quadratic": len(quad.points),
    }
    write_json(out / "meta.json", meta)
    print(json.dumps(meta), flush=True)
    return meta


def line_nodes(quad: QuadraticTets, line: np.ndarray) -> np.ndarray:
    """1-based corner and mid-side nodes along a line of consecutive mesh vertices."""
    pairs = np.stack([line[:-1], line[1:]], axis=1)
    index = quad._edge_index(pairs)
    assert np.array_equal(quad.edge_pairs[index], np.sort(pairs, axis=1)), (
        "the line is not made of mesh edges"
    )
    return np.unique(np.concatenate([line, quad.nv + index])) + 1


def ccx_deck(quad: QuadraticTets, left, right, centre: int, ends) -> str:
    lines = ["*HEADING", "Fieldline bench: prestressed pinned strip (C3D10)"]
    lines += quad.deck_mesh("C3D10")
    lines += nset("LEFTLINE", line_nodes(quad, left))
    lines += nset("RIGHTLINE", line_nodes(quad, right))
    lines += nset("PINY", np.array([left[0], right[0]]) + 1)
    lines += nset("PINX", np.array([centre]) + 1)
    lines += [
        "*MATERIAL, NAME=STEEL",
        "*ELASTIC",
        f"{E:.8g}, {NU}",
        "*DENSITY",
        f"{RHO:.8g}",
        "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL",
        "*BOUNDARY",
        "LEFTLINE, 3, 3",
        "RIGHTLINE, 3, 3",
        "PINY, 2, 2",
        "PINX, 1, 1",
        "*STEP",
        "*STATIC",
        "*DLOAD",
    ]
    # A pull: negative pressure (CalculiX's pressure pushes into the element) of P / (W H) on both end faces.
    traction = P / AREA
    for faces in ends:
        lines += [f"{e}, P{k}, {-traction:.12g}" for e, k in quad.element_faces(faces)]
    lines += [
        "*END STEP",
        "*STEP, PERTURBATION",
        "*FREQUENCY",
        f"{MODES}",
        "*END STEP",
    ]
    return "\n".join(lines) + "\n"


def report(out: Path) -> dict:
    meta = json.loads((out / "meta.json").read_text())
    exact = first_frequency_exact()
    row = {
        **meta,
        "exact_Hz": round(exact, 5),
        "exact_unstressed_Hz": round(first_frequency_exact(0.0), 5),
    }
    for name in ("fieldline", "modal"):
        path = out / name / "results.json"
        if not path.exists():
            continue
        res = json.loads(path.read_text())
        f = next(m["frequency"] for m in res["modes"] if not m["rigid_body"])
        row[name] = {"f1_Hz": round(f, 5), "dofs": res["solver_info"]["matrix_size"]}
        if name == "fieldline":
            row[name]["error"] = f / exact - 1
            row[name]["prestress_effect"] = res["quantities"].get("prestress_effect")
        else:
            row[name]["error_vs_unstressed"] = f / first_frequency_exact(0.0) - 1
    dat = out / "ccx" / "beam.dat"
    if dat.exists():
        f = float(dat_frequencies(dat)[0])
        row["ccx"] = {"f1_Hz": round(f, 5), "error": f / exact - 1}
    if "fieldline" in row and "ccx" in row:
        row["codes_difference_rel"] = (
            row["fieldline"]["f1_Hz"] / row["ccx"]["f1_Hz"] - 1
        )
    return row


def run_all(out: Path) -> dict:
    env = engine_env()
    return {
        name: timed(
            ["ccx", "-i", "beam"]
            if name == "ccx"
            else [sys.executable, "-m", "fieldline_engine", "solve", "--job", "."],
            out / name,
            env,
        )
        for name in RUNS
    }


def ladder(out: Path, sizes: list[str]) -> None:
    rows = []
    for cells in sizes:
        folder = out / f"cells{cells}"
        prepare(cells, folder)
        times = run_all(folder)
        row = {**report(folder), "times": times}
        rows.append(row)
        print(json.dumps(row), flush=True)
    write_json(out / "ladder.json", rows)


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "prepare":
        prepare(sys.argv[2], Path(sys.argv[3]))
    elif command == "report":
        print(json.dumps(report(Path(sys.argv[2])), indent=2))
    elif command == "ladder":
        ladder(Path(sys.argv[2]), sys.argv[3:])
    else:
        raise SystemExit(__doc__)
