"""NAFEMS LE10 (thick plate under pressure) as a user's upload: shared by the validation test and
bench/structural/le10.py.

The quarter of the region between the ellipses (x/2)² + y² = 1 and (x/3.25)² + (y/2.75)² = 1 (m), 0.6 m
thick (−0.3 ≤ z ≤ 0.3), E = 210 GPa, ν = 0.3, 1 MPa on the top face z = 0.3. Supports: u_y = 0 on y = 0,
u_x = 0 on x = 0, u_x = u_y = 0 on the outer curved face, and u_z = 0 on the outer face's mid-line (z = 0)
only, an edge condition. Target: σ_yy at D = (2, 0, 0.3) is −5.38 MPa.

The plate is built as two glued halves so the mid-line is a CAD edge, and every mesh has vertices on it;
the face between the halves is left out of the upload (one body).
"""

from typing import Any

import numpy as np

E, NU, PRESSURE, HALF = 210e9, 0.3, 1e6, 0.3
TARGET_PA = -5.38e6
D = (2.0, 0.0, HALF)


def _name_faces(solid, maxh_inner: float) -> None:
    for f in solid.faces:
        c = f.center
        if abs(c.x) < 1e-9:
            f.name = "sym_x"
        elif abs(c.y) < 1e-9:
            f.name = "sym_y"
        elif abs(c.z - HALF) < 1e-9:
            f.name = "top"
        elif abs(c.z + HALF) < 1e-9:
            f.name = "bottom"
        elif abs(c.z) < 1e-9:
            f.name = "mid"  # between the halves
        elif (c.x / 3.25) ** 2 + (c.y / 2.75) ** 2 > 0.5:
            f.name = "outer"
        else:
            f.name = "inner"
            f.maxh = maxh_inner  # D sits on the inner ellipse


def geometry(maxh: float):
    from netgen import occ

    plan = occ.WorkPlane().Ellipse(3.25, 2.75).Face() - occ.WorkPlane().Ellipse(2.0, 1.0).Face()
    quarter = occ.Box(occ.Pnt(0, 0, -HALF), occ.Pnt(4, 4, HALF))
    halves = []
    for z0 in (-HALF, 0.0):
        half = plan.Extrude(HALF).Move(occ.Vec(0, 0, z0)) * quarter
        _name_faces(half, maxh / 3)
        halves.append(half)
    return occ.Glue(halves)


def mesh_data(maxh: float) -> tuple[dict[str, Any], dict[str, list[int]], np.ndarray]:
    """The upload (metres), 1-based face ids per name, and the mid-line's mesh edges (vertex pairs)."""
    import ngsolve as ng
    from netgen import occ

    mesh = ng.Mesh(occ.OCCGeometry(geometry(maxh)).GenerateMesh(maxh=maxh))
    vertices = np.array([p.point for p in mesh.vertices])
    tets = [[v.nr for v in el.vertices] for el in mesh.Elements(ng.VOL)]
    faces: list[list[int]] = []
    groups: dict[str, list[int]] = {}
    for el in mesh.Elements(ng.BND):
        if el.mat == "mid":
            continue
        faces.append([v.nr for v in el.vertices])
        groups.setdefault(el.mat, []).append(len(faces))
    tris = np.asarray(faces)[np.asarray(groups["outer"]) - 1]
    pairs = np.sort(np.concatenate([tris[:, [0, 1]], tris[:, [1, 2]], tris[:, [2, 0]]]), axis=1)
    pairs = np.unique(pairs, axis=0)
    on_mid = np.all(np.abs(vertices[pairs][:, :, 2]) < 1e-9, axis=1)
    data = {"vertices": vertices.tolist(), "tetrahedra": tets, "faces": faces, "units": "m"}
    return data, groups, pairs[on_mid]


def config(groups: dict[str, list[int]], mid_line: np.ndarray, order: int = 2) -> dict[str, Any]:
    return {
        "analysisType": "structural",
        "meshOrder": order,
        "youngsModulus": E,
        "poissonRatio": NU,
        "displacementConditions": [
            {"faces": groups["sym_x"], "displacement": [0, None, None], "name": "x = 0"},
            {"faces": groups["sym_y"], "displacement": [None, 0, None], "name": "y = 0"},
            {"faces": groups["outer"], "displacement": [0, 0, None], "name": "outer face"},
            {"edges": mid_line.tolist(), "displacement": [None, None, 0], "name": "outer mid-line"},
        ],
        "pressureLoads": [{"faces": groups["top"], "pressure": PRESSURE, "name": "top"}],
    }


def d_vertex(vertices: np.ndarray) -> int:
    return int(np.argmin(np.linalg.norm(np.asarray(vertices) - D, axis=1)))
