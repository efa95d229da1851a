"""bench/structural: NAFEMS LE10 (thick plate under pressure) with Fieldline's engine and CalculiX 2.20 on
one mesh.

The plate, its supports (u_z = 0 on the outer face's mid-line only: an edge support in Fieldline, a node
set on the mid-line in CalculiX) and the target σ_yy(D) = −5.38 MPa are in
engine/fieldline_engine/testing/nafems_le10.py, shared with the validation test. One Netgen mesh goes to
both codes: Fieldline through its job interface (quadratic elements, straight geometry like CalculiX's,
the solver given by SOLVER), CalculiX as C3D10 with the pressure as *DLOAD on element faces. Both report
the averaged nodal σ_yy at D.

Usage:
  .venv/bin/python bench/structural/le10.py prepare MAXH OUT [SOLVER]   # SOLVER: direct (default), cg-bddc, …
  .venv/bin/python bench/structural/le10.py run OUT [REPEAT]            # A B A B with /usr/bin/time -v
  .venv/bin/python bench/structural/le10.py report OUT                  # σ_yy at D from both, errors
  .venv/bin/python bench/structural/le10.py ladder OUT MAXH [MAXH ...]  # each mesh in both codes, one table

The ladder is how "time to 1 % error" is read: σ_yy at D converges unevenly with the mesh (a coarse mesh can
land within 1 % by luck and the next finer one leave it), so the table shows every rung.
"""

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT / "bench"))

from ccx_deck import QuadraticTets, frd_blocks, nset, side_by_side, write_json
from fieldline_engine.testing import nafems_le10 as le10


def prepare(maxh: float, out: Path, solver: str) -> None:
    data, groups, mid_line = le10.mesh_data(maxh)
    config = {**le10.config(groups, mid_line), "linearSolver": solver}
    (out / "fieldline").mkdir(parents=True, exist_ok=True)
    (out / "fieldline" / "job.json").write_text(
        json.dumps({"mesh_data": data, "config": config})
    )
    (out / "ccx").mkdir(parents=True, exist_ok=True)
    (out / "ccx" / "le10.inp").write_text(calculix_deck(data, groups, mid_line))
    d = le10.d_vertex(np.asarray(data["vertices"]))
    meta = {
        "maxh": maxh,
        "solver": solver,
        "vertices": len(data["vertices"]),
        "tetrahedra": len(data["tetrahedra"]),
        "d_node": d,
    }
    write_json(out / "meta.json", meta)
    print(
        f"LE10 maxh {maxh}: {meta['vertices']} vertices, {meta['tetrahedra']} tetrahedra, D = vertex {d}"
    )


def calculix_deck(
    data: dict, groups: dict[str, list[int]], mid_line: np.ndarray
) -> str:
    q = QuadraticTets(data)
    mid_nodes = (
        np.unique(np.concatenate([mid_line.ravel(), q.nv + q._edge_index(mid_line)]))
        + 1
    )
    lines = ["*HEADING", "NAFEMS LE10 (Fieldline bench: the same tetrahedra as C3D10)"]
    lines += q.deck_mesh("C3D10")
    lines += nset("SYM_X", q.face_nodes(groups["sym_x"]))
    lines += nset("SYM_Y", q.face_nodes(groups["sym_y"]))
    lines += nset("OUTER", q.face_nodes(groups["outer"]))
    lines += nset("MIDLINE", mid_nodes)
    lines += ["*MATERIAL, NAME=STEEL", "*ELASTIC", f"{le10.E:.6g}, {le10.NU}"]
    lines += [
        "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL",
        "*STEP",
        "*STATIC",
        "*BOUNDARY",
    ]
    lines += ["SYM_X, 1, 1", "SYM_Y, 2, 2", "OUTER, 1, 2", "MIDLINE, 3, 3", "*DLOAD"]
    # Positive *DLOAD pressure pushes into the element, as Fieldline's positive pressure does.
    lines += [
        f"{e}, P{face}, {le10.PRESSURE:.6g}"
        for e, face in q.element_faces(groups["top"])
    ]
    lines += ["*NODE FILE", "S", "*END STEP"]
    return "\n".join(lines) + "\n"


def report(out: Path) -> dict:
    meta = json.loads((out / "meta.json").read_text())
    d = meta["d_node"]
    res = json.loads((out / "fieldline" / "results.json").read_text())
    ours = float(np.asarray(res["fields"]["stress"]["data"])[d][1])
    theirs = float(frd_blocks(out / "ccx" / "le10.frd", "STRESS", 6)[0][d][1])
    row = {
        **meta,
        "fieldline_dofs": res["solver_info"]["matrix_size"],
        "fieldline_method": res["solver_info"].get("linear_solver")
        or res["solver_info"].get("method")
        or res["solver_info"].get("solver"),
        "fieldline_sigma_yy_MPa": ours / 1e6,
        "fieldline_error": ours / le10.TARGET_PA - 1,
        "calculix_sigma_yy_MPa": theirs / 1e6,
        "calculix_error": theirs / le10.TARGET_PA - 1,
    }
    print(json.dumps(row, indent=2))
    return row


def ladder(out: Path, sizes: list[float]) -> None:
    """Each mesh size in both codes (one run each, CPU seconds and peak RSS): error at D against cost."""
    print(
        "maxh | DOFs | σyy(D) error | Fieldline CPU s / MB | CalculiX CPU s / MB | CPU ratio"
    )
    for maxh in sizes:
        rung = out / f"maxh{maxh}"
        if not (rung / "meta.json").exists():
            prepare(maxh, rung, "auto")
        times = side_by_side(rung, "le10", 1, 1)
        row = report(rung)
        print(
            f"{maxh} | {row['fieldline_dofs']} | {100 * row['fieldline_error']:+.2f} % "
            f"(CalculiX {100 * row['calculix_error']:+.2f} %) | {times['fieldline_cpu_s']:.2f} / "
            f"{times['fieldline_mb']:.0f} | {times['peer_cpu_s']:.2f} / {times['peer_mb']:.0f} | "
            f"{times['cpu_ratio']:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(
            float(sys.argv[2]),
            Path(sys.argv[3]),
            sys.argv[4] if len(sys.argv) > 4 else "direct",
        )
    elif sys.argv[1] == "run":
        out = Path(sys.argv[2])
        print(
            json.dumps(
                side_by_side(
                    out, "le10", int(sys.argv[3]) if len(sys.argv) > 3 else 1, 1
                ),
                indent=2,
            )
        )
    elif sys.argv[1] == "ladder":
        ladder(Path(sys.argv[2]), [float(h) for h in sys.argv[3:]])
    else:
        report(Path(sys.argv[2]))
