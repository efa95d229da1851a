"""Netgen meshes in the upload format (mesh_data), so job-level tests can use curved-geometry models
(coax, cavities) as a user's tetrahedral upload: straight tetrahedra, face ids per boundary name."""

from typing import Any

import ngsolve as ng
import numpy as np


def mesh_data_from_ngsolve(mesh: ng.Mesh, unit: str = "mm") -> tuple[dict[str, Any], dict[str, list[int]]]:
    """mesh_data in `unit` and the 1-based face ids of each boundary name."""
    scale = {"m": 1.0, "mm": 1e3, "cm": 1e2}[unit]
    vertices = np.array([p.point for p in mesh.vertices]) * scale
    tets = [[v.nr for v in el.vertices] for el in mesh.Elements(ng.VOL)]
    faces: list[list[int]] = []
    by_name: dict[str, list[int]] = {}
    for el in mesh.Elements(ng.BND):
        faces.append([v.nr for v in el.vertices])
        by_name.setdefault(el.mat, []).append(len(faces))
    data = {"vertices": vertices.tolist(), "tetrahedra": tets, "faces": faces, "units": unit}
    return data, by_name
