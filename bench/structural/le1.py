"""bench/structural: NAFEMS LE1 (elliptic membrane) with Fieldline's engine and CalculiX 2.20 on one mesh.

LE1: the quarter of the region between the ellipses (x/2)² + y² = 1 and (x/3.25)² + (y/2.75)² = 1 (m),
E = 210 GPa, ν = 0.3, a uniform outward pressure of 10 MPa on the outer edge, symmetry on x = 0 (u_x = 0)
and y = 0 (u_y = 0). Target: σ_yy at D = (2, 0) is 92.7 MPa (plane stress). The membrane is 0.1 m thick;
this model is its half-thickness 0 ≤ z ≤ 0.05 with u_z = 0 on the mid-plane z = 0 (exact for plane stress,
and it holds the part in z).

One Netgen mesh (straight tetrahedra, refined towards D) goes to both codes: Fieldline solves it through
its job interface (`python -m fieldline_engine solve`, quadratic elements, direct solver); CalculiX gets the
same tetrahedra as C3D10 (mid-side nodes on the straight edges) with the pressure as *DLOAD on element
faces, and writes extrapolated nodal stresses to its .frd file. Both report σ_yy at the node at D (the
averaged nodal stress each code prints).

Usage:
  .venv/bin/python bench/structural/le1.py prepare MAXH OUT   # job dir for Fieldline + le1.inp for CalculiX
  .venv/bin/python bench/structural/le1.py report OUT          # σ_yy at D from both, errors
Time the two runs side by side with any whole-process timer (GNU time -v gives peak memory):
  cd OUT/fieldline && python -m fieldline_engine solve --job .   |   cd OUT/ccx && ccx -i le1
"""

import json
import re
import sys
from pathlib import Path

import numpy as np

TARGET_PA = 92.7e6
E, NU, PRESSURE, HALF_THICKNESS = 210e9, 0.3, 10e6, 0.05
D = np.array([2.0, 0.0])
# C3D10 faces (CalculiX manual: face 1 = 1-2-3, 2 = 1-4-2, 3 = 2-4-3, 4 = 3-4-1), as corner indices.
C3D10_FACES = {1: (0, 1, 2), 2: (0, 3, 1), 3: (1, 3, 2), 4: (2, 3, 0)}


def geometry(maxh: float):
    from netgen import occ

    wp = occ.WorkPlane()
    outer = wp.Ellipse(3.25, 2.75).Face()
    inner = occ.WorkPlane().Ellipse(2.0, 1.0).Face()
    solid = (outer - inner).Extrude(HALF_THICKNESS) * occ.Box(
        occ.Pnt(0, 0, 0), occ.Pnt(4, 4, HALF_THICKNESS)
    )
    for f in solid.faces:
        c = f.center
        if abs(c.x) < 1e-9:
            f.name = "sym_x"
        elif abs(c.y) < 1e-9:
            f.name = "sym_y"
        elif abs(c.z) < 1e-9:
            f.name = "mid_plane"
        elif abs(c.z - HALF_THICKNESS) < 1e-9:
            f.name = "top"
        elif (c.x / 3.25) ** 2 + (
            c.y / 2.75
        ) ** 2 > 0.5:  # the outer ellipse (centroids of curved faces lie inside)
            f.name = "outer"
        else:
            f.name = "inner"
            f.maxh = maxh / 4  # the stress concentration at D sits on the inner ellipse
    return solid


def prepare(maxh: float, out: Path) -> None:
    import ngsolve as ng
    from netgen import occ

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "engine"))
    from fieldline_engine.testing.uploaded import mesh_data_from_ngsolve

    mesh = ng.Mesh(occ.OCCGeometry(geometry(maxh)).GenerateMesh(maxh=maxh))
    data, groups = mesh_data_from_ngsolve(mesh, "m")
    config = {
        "analysisType": "structural",
        "meshOrder": 2,
        "linearSolver": "direct",
        "youngsModulus": E,
        "poissonRatio": NU,
        "displacementConditions": [
            {"faces": groups["sym_x"], "displacement": [0, None, None]},
            {"faces": groups["sym_y"], "displacement": [None, 0, None]},
            {"faces": groups["mid_plane"], "displacement": [None, None, 0]},
        ],
        "pressureLoads": [
            {"faces": groups["outer"], "pressure": -PRESSURE}
        ],  # outward: negative
    }
    (out / "fieldline").mkdir(parents=True, exist_ok=True)
    (out / "fieldline" / "job.json").write_text(
        json.dumps({"mesh_data": data, "config": config})
    )
    (out / "ccx").mkdir(parents=True, exist_ok=True)
    (out / "ccx" / "le1.inp").write_text(calculix_deck(data, groups))
    vertices = np.asarray(data["vertices"])
    d_node = int(
        np.argmin(np.linalg.norm(vertices - [2.0, 0.0, HALF_THICKNESS], axis=1))
    )
    (out / "meta.json").write_text(
        json.dumps(
            {
                "maxh": maxh,
                "vertices": len(vertices),
                "tetrahedra": len(data["tetrahedra"]),
                "d_node": d_node,
            }
        )
    )
    print(
        f"LE1 mesh maxh {maxh}: {len(vertices)} vertices, {len(data['tetrahedra'])} tetrahedra, D = node {d_node}"
    )


def calculix_deck(data, groups) -> str:
    vertices = np.asarray(data["vertices"])
    tets = np.asarray(data["tetrahedra"])
    faces = np.asarray(data["faces"])
    edges: dict[tuple[int, int], int] = {}
    points = [tuple(v) for v in vertices]

    def mid(a: int, b: int) -> int:
        key = (min(a, b), max(a, b))
        if key not in edges:
            edges[key] = len(points)
            points.append(tuple((vertices[a] + vertices[b]) / 2))
        return edges[key]

    elements = []
    for t in tets:
        a, b, c, d = (int(x) for x in t)
        # CalculiX needs a positive Jacobian: (2−1)×(3−1)·(4−1) > 0.
        if (
            np.dot(
                np.cross(vertices[b] - vertices[a], vertices[c] - vertices[a]),
                vertices[d] - vertices[a],
            )
            < 0
        ):
            b, c = c, b
        elements.append(
            [
                a,
                b,
                c,
                d,
                mid(a, b),
                mid(b, c),
                mid(c, a),
                mid(a, d),
                mid(b, d),
                mid(c, d),
            ]
        )
    lines = [
        "*HEADING",
        "NAFEMS LE1 (Fieldline bench: the same tetrahedra as C3D10)",
        "*NODE",
    ]
    lines += [
        f"{i + 1}, {p[0]:.12g}, {p[1]:.12g}, {p[2]:.12g}" for i, p in enumerate(points)
    ]
    lines.append("*ELEMENT, TYPE=C3D10, ELSET=EALL")
    lines += [
        f"{e + 1}, " + ", ".join(str(n + 1) for n in el)
        for e, el in enumerate(elements)
    ]

    def nodes_of(name: str) -> list[int]:
        tri = faces[np.asarray(groups[name]) - 1]
        corner = {int(n) for n in tri.ravel()}
        mids = {
            edges[(min(a, b), max(a, b))]
            for t in tri
            for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0]))
        }
        return sorted(n + 1 for n in corner | mids)

    for name, dof in (("sym_x", 1), ("sym_y", 2), ("mid_plane", 3)):
        lines.append(f"*NSET, NSET={name.upper()}")
        ids = nodes_of(name)
        lines += [
            ", ".join(str(n) for n in ids[i : i + 12]) for i in range(0, len(ids), 12)
        ]
    lines += [
        "*MATERIAL, NAME=STEEL",
        "*ELASTIC",
        f"{E:.6g}, {NU}",
        "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL",
    ]
    lines += [
        "*STEP",
        "*STATIC",
        "*BOUNDARY",
        "SYM_X, 1, 1",
        "SYM_Y, 2, 2",
        "MID_PLANE, 3, 3",
        "*DLOAD",
    ]
    # Pressure on the outer face: find each triangle's element face (positive = into the element, so an
    # outward pull is negative).
    outer = {tuple(sorted(int(x) for x in faces[i - 1])): i for i in groups["outer"]}
    for e, el in enumerate(elements):
        for label, corners in C3D10_FACES.items():
            key = tuple(sorted(int(el[k]) for k in corners))
            if key in outer:
                lines.append(f"{e + 1}, P{label}, {-PRESSURE:.6g}")
    lines += ["*NODE FILE", "S", "*END STEP"]
    return "\n".join(lines) + "\n"


def frd_stress(path: Path, node: int) -> np.ndarray:
    """σ (xx yy zz xy yz zx) at a node from CalculiX's ASCII .frd (the STRESS block)."""
    text = path.read_text()
    block = text[text.index("STRESS") :]
    for line in block.splitlines():
        if line.startswith(" -1") and int(line[3:13]) == node:
            values = re.findall(r"-?\d\.\d+E[+-]\d+", line[13:])
            return np.array([float(v) for v in values[:6]])
    raise KeyError(node)


def report(out: Path) -> dict:
    meta = json.loads((out / "meta.json").read_text())
    d = meta["d_node"]
    res = json.loads((out / "fieldline" / "results.json").read_text())
    ours = float(np.asarray(res["fields"]["stress"]["data"])[d][1])
    theirs = float(frd_stress(out / "ccx" / "le1.frd", d + 1)[1])
    row = {
        **meta,
        "fieldline_dofs": res["solver_info"]["matrix_size"],
        "fieldline_sigma_yy_MPa": ours / 1e6,
        "fieldline_error": ours / TARGET_PA - 1,
        "calculix_sigma_yy_MPa": theirs / 1e6,
        "calculix_error": theirs / TARGET_PA - 1,
        "fieldline_seconds": res["computation_time"],
    }
    print(json.dumps(row, indent=2))
    return row


if __name__ == "__main__":
    if sys.argv[1] == "prepare":
        prepare(float(sys.argv[2]), Path(sys.argv[3]))
    else:
        report(Path(sys.argv[2]))
