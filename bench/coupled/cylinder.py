"""bench/coupled: thick cylinder with a steady radial temperature difference, Fieldline's thermal-structural job
against CalculiX 2.20 on one quadratic mesh.

The tube a = 0.1 m < r < b = 0.2 m, 0.02 m long, a quarter by symmetry, plane strain (u_z = 0 on both ends);
bore at T_a = 393.15 K, outside at T_b = 293.15 K (the stress-free temperature), steel E = 200 GPa, ν = 0.3,
α = 12e-6 /K, k = 50 W/(m K). Steady conduction gives T = T_b + ΔT ln(b/r)/ln(b/a); Timoshenko & Goodier §151
give the plane-strain hoop stress
    σθ(r) = αEΔT / (2(1−ν) ln(b/a)) · [1 − ln(b/r) − a²/(b²−a²) (1 + b²/r²) ln(b/a)]
(−159.2 MPa at the bore, +104.9 MPa outside). The error of a run is the larger of the two relative errors of
the hoop stress (median over the vertices on each radius, each code's averaged nodal stress).

One Netgen mesh (straight-sided tetrahedra) goes to every run:
- OUT/fieldline: `analysisType: "thermal-structural"`, meshOrder 2 — the whole coupled job (one mesh import,
  the steady thermal solve, then elasticity under its temperature);
- OUT/structural: `analysisType: "structural"` with the same temperature handed in as a chained field
  (fields_from.json, what the worker writes for `fieldsFrom`) — the structural solve alone, same load;
- OUT/ccx: CalculiX C3D10, `*STATIC` with the same temperature as nodal `*TEMPERATURE` (Fieldline's thermal
  step's vertex values; each mid-side node the mean of its edge's ends, which is the piecewise-linear field
  Fieldline's thermal load interpolates), `*EXPANSION` with `*INITIAL CONDITIONS` at T_b;
- OUT/ccx-coupled: CalculiX solving the thermal problem too, `*UNCOUPLED TEMPERATURE-DISPLACEMENT, STEADY
  STATE` (per increment a thermal solve, then the mechanical one under its temperatures): the like-for-like
  peer of the coupled job.

Usage:
  .venv/bin/python bench/coupled/cylinder.py prepare MAXH OUT     # meshes, writes the four run folders
  .venv/bin/python bench/coupled/cylinder.py report OUT           # hoop stresses of every run vs the closed form
  .venv/bin/python bench/coupled/cylinder.py ladder OUT MAXH...   # one run of each per mesh: time to 1 %
Time whole processes side by side (GNU time -v for peak memory):
  (cd OUT/fieldline && python -m fieldline_engine solve --job .)   |   (cd OUT/ccx && ccx -i cylinder)
"""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1] / "engine"))

from ccx_deck import QuadraticTets, frd_blocks, nset, timed, write_json

A_IN, B_OUT, LENGTH = 0.1, 0.2, 0.02
T_A, T_B = 393.15, 293.15
E, NU, ALPHA, K = 200e9, 0.3, 12e-6, 50.0
RUNS = ("fieldline", "structural", "ccx", "ccx-coupled")


def hoop_exact(r: float) -> float:
    log = math.log(B_OUT / A_IN)
    return (
        ALPHA
        * E
        * (T_A - T_B)
        / (2 * (1 - NU) * log)
        * (
            1
            - math.log(B_OUT / r)
            - A_IN**2 / (B_OUT**2 - A_IN**2) * (1 + B_OUT**2 / r**2) * log
        )
    )


def geometry():
    from netgen import occ

    tube = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, B_OUT, LENGTH) - occ.Cylinder(
        occ.Pnt(0, 0, 0), occ.Z, A_IN, LENGTH
    )
    quarter = tube * occ.Box(occ.Pnt(0, 0, 0), occ.Pnt(B_OUT, B_OUT, LENGTH))
    quarter.faces.Min(occ.X).name = "sym_x"
    quarter.faces.Min(occ.Y).name = "sym_y"
    quarter.faces.Min(occ.Z).name = "bottom"
    quarter.faces.Max(occ.Z).name = "top"
    for face in quarter.faces:
        if not face.name:
            face.name = (
                "bore" if math.hypot(face.center.x, face.center.y) < 0.15 else "outer"
            )
    return quarter


def engine_env() -> dict:
    env = dict(os.environ)
    env.update(
        FIELDLINE_THREADS="1", OMP_NUM_THREADS="1", CCX_NPROC_EQUATION_SOLVER="1"
    )
    env["PYTHONPATH"] = str(HERE.parents[1] / "engine")
    return env


def prepare(maxh: float, out: Path) -> dict:
    import ngsolve as ng
    from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve
    from netgen import occ

    data, groups = mesh_data_from_ngsolve(
        ng.Mesh(occ.OCCGeometry(geometry()).GenerateMesh(maxh=maxh)), "m"
    )
    supports = [
        {"faces": groups["sym_x"], "displacement": [0, None, None]},
        {"faces": groups["sym_y"], "displacement": [None, 0, None]},
        {"faces": groups["bottom"] + groups["top"], "displacement": [None, None, 0]},
    ]
    common = {
        "meshOrder": 2,
        "youngsModulus": E,
        "poissonRatio": NU,
        "thermalExpansion": ALPHA,
        "referenceTemperature": T_B,
        "displacementConditions": supports,
    }
    coupled = {
        **common,
        "analysisType": "thermal-structural",
        "thermalConductivity": K,
        "temperatureConditions": [
            {"faces": groups["bore"], "temperature": T_A, "name": "bore"},
            {"faces": groups["outer"], "temperature": T_B, "name": "outside"},
        ],
    }
    for name in RUNS:
        (out / name).mkdir(parents=True, exist_ok=True)
    (out / "fieldline" / "job.json").write_text(
        json.dumps({"mesh_data": data, "config": coupled})
    )
    # The coupled job once, for the temperature the structural-alone run and CalculiX's *TEMPERATURE take.
    subprocess.run(
        [sys.executable, "-m", "fieldline_engine", "solve", "--job", "."],
        cwd=out / "fieldline",
        env=engine_env(),
        check=True,
        capture_output=True,
    )
    temperature = json.loads((out / "fieldline" / "results.json").read_text())[
        "fields"
    ]["temperature"]
    handed = {
        "source": {
            "job_id": "00000000-0000-4000-8000-00000000c0de",
            "analysis": "thermal-structural",
        },
        "fields": {
            "temperature": {
                k: temperature[k] for k in ("label", "unit", "kind", "location", "data")
            }
        },
    }
    structural = {
        **common,
        "analysisType": "structural",
        "fieldsFrom": {"jobId": handed["source"]["job_id"], "fields": ["temperature"]},
    }
    (out / "structural" / "job.json").write_text(
        json.dumps({"mesh_data": data, "config": structural})
    )
    (out / "structural" / "fields_from.json").write_text(json.dumps(handed))

    quad = QuadraticTets(data)
    t_vertex = np.asarray(temperature["data"], dtype=float)
    t_nodes = np.concatenate([t_vertex, t_vertex[quad.edge_pairs].mean(axis=1)])
    (out / "ccx" / "cylinder.inp").write_text(
        ccx_given_temperature(quad, groups, t_nodes)
    )
    (out / "ccx-coupled" / "cylinder.inp").write_text(ccx_coupled(quad, groups))
    meta = {
        "case": "thick cylinder hoop stress",
        "maxh": maxh,
        "vertices": quad.nv,
        "tetrahedra": len(quad.tets),
        "nodes_quadratic": len(quad.points),
    }
    write_json(out / "meta.json", meta)
    print(json.dumps(meta), flush=True)
    return meta


def _deck_head(quad: QuadraticTets, groups: dict, title: str) -> list[str]:
    lines = ["*HEADING", f"Fieldline bench: thick cylinder, {title} (C3D10)"]
    lines += quad.deck_mesh("C3D10")
    lines += nset("SYMX", quad.face_nodes(groups["sym_x"]))
    lines += nset("SYMY", quad.face_nodes(groups["sym_y"]))
    lines += nset("ENDS", quad.face_nodes(groups["bottom"] + groups["top"]))
    return lines


def _material(conductivity: bool) -> list[str]:
    lines = [
        "*MATERIAL, NAME=STEEL",
        "*ELASTIC",
        f"{E:.8g}, {NU}",
        f"*EXPANSION, ZERO={T_B}",
        f"{ALPHA:.8g}",
    ]
    if conductivity:
        lines += ["*CONDUCTIVITY", f"{K:.8g}"]
    return lines + [
        "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL",
        "*INITIAL CONDITIONS, TYPE=TEMPERATURE",
        f"NALL, {T_B}",
    ]


SUPPORTS = ["*BOUNDARY", "SYMX, 1, 1", "SYMY, 2, 2", "ENDS, 3, 3"]


def ccx_given_temperature(
    quad: QuadraticTets, groups: dict, t_nodes: np.ndarray
) -> str:
    lines = _deck_head(quad, groups, "given nodal temperatures") + _material(False)
    lines += ["*STEP", "*STATIC", *SUPPORTS, "*TEMPERATURE"]
    lines += [f"{i + 1}, {t:.12g}" for i, t in enumerate(t_nodes)]
    lines += ["*NODE FILE", "S", "*END STEP"]
    return "\n".join(lines) + "\n"


def ccx_coupled(quad: QuadraticTets, groups: dict) -> str:
    lines = _deck_head(quad, groups, "thermal solve then elasticity")
    lines += nset("BORE", quad.face_nodes(groups["bore"]))
    lines += nset("OUTER", quad.face_nodes(groups["outer"]))
    lines += _material(True)
    lines += [
        "*STEP",
        "*UNCOUPLED TEMPERATURE-DISPLACEMENT, STEADY STATE",
        "1., 1.",
        *SUPPORTS,
        f"BORE, 11, 11, {T_A}",
        f"OUTER, 11, 11, {T_B}",
        "*NODE FILE",
        "NT, S",
        "*END STEP",
    ]
    return "\n".join(lines) + "\n"


def hoop_errors(vertices: np.ndarray, stress: np.ndarray) -> dict:
    """Hoop stress (median over the vertices on each radius) at the bore and the outside vs the closed form."""
    r = np.hypot(vertices[:, 0], vertices[:, 1])
    c, s = vertices[:, 0] / r, vertices[:, 1] / r
    hoop = stress[:, 0] * s**2 + stress[:, 1] * c**2 - 2 * stress[:, 3] * s * c
    out = {}
    for where, radius in (("bore", A_IN), ("outside", B_OUT)):
        value = float(np.median(hoop[np.isclose(r, radius, rtol=1e-3)]))
        out[f"hoop_{where}_MPa"] = round(value / 1e6, 5)
        out[f"error_{where}"] = value / hoop_exact(radius) - 1
    out["error"] = max(abs(out["error_bore"]), abs(out["error_outside"]))
    return out


def _ccx_stress(path: Path, nv: int) -> np.ndarray:
    """Vertex stresses (xx yy zz xy yz zx) from the last STRESS block (vertices are CalculiX nodes 1..nv)."""
    return frd_blocks(path, "STRESS", 6)[-1][:nv]


def report(out: Path) -> dict:
    meta = json.loads((out / "meta.json").read_text())
    data = json.loads((out / "fieldline" / "job.json").read_text())["mesh_data"]
    vertices = np.asarray(data["vertices"], dtype=float)
    row = {**meta}
    for name in ("fieldline", "structural"):
        res = json.loads((out / name / "results.json").read_text())
        row[name] = hoop_errors(
            vertices, np.asarray(res["fields"]["stress"]["data"], dtype=float)
        )
        row[name]["dofs"] = res["solver_info"]["matrix_size"]
    for name in ("ccx", "ccx-coupled"):
        frd = out / name / "cylinder.frd"
        if frd.exists():
            row[name] = hoop_errors(vertices, _ccx_stress(frd, len(vertices)))
    ours = json.loads((out / "structural" / "results.json").read_text())["fields"][
        "stress"
    ]["data"]
    if (out / "ccx" / "cylinder.frd").exists():
        theirs = _ccx_stress(out / "ccx" / "cylinder.frd", len(vertices))
        ours = np.asarray(ours, dtype=float)
        row["codes_max_difference_rel"] = float(
            np.max(np.abs(ours - theirs)) / np.max(np.abs(theirs))
        )
    row["hoop_exact_MPa"] = {
        "bore": hoop_exact(A_IN) / 1e6,
        "outside": hoop_exact(B_OUT) / 1e6,
    }
    return row


def run_all(out: Path) -> dict:
    """One timed run of each (whole process, GNU time -v)."""
    env = engine_env()
    times = {}
    for name in RUNS:
        cmd = (
            ["ccx", "-i", "cylinder"]
            if name.startswith("ccx")
            else [sys.executable, "-m", "fieldline_engine", "solve", "--job", "."]
        )
        times[name] = timed(cmd, out / name, env)
    return times


def ladder(out: Path, sizes: list[float]) -> None:
    rows = []
    for maxh in sizes:
        folder = out / f"maxh{maxh}"
        prepare(maxh, folder)
        times = run_all(folder)
        row = report(folder)
        row["times"] = times
        rows.append(row)
        print(json.dumps(row), flush=True)
    write_json(out / "ladder.json", rows)


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "prepare":
        prepare(float(sys.argv[2]), Path(sys.argv[3]))
    elif command == "report":
        print(json.dumps(report(Path(sys.argv[2])), indent=2))
    elif command == "ladder":
        ladder(Path(sys.argv[2]), [float(x) for x in sys.argv[3:]])
    else:
        raise SystemExit(__doc__)
