"""Turns a TetModel plus per-face boundary labels into an NGSolve mesh.

Bodies become materials named `body0`, `body1`, … (display names stay in the TetModel); each surface face carries the label of the boundary condition
that uses it (`default` when none), so weak forms can say ds("dirichlet_0") and so on.
"""

import ngsolve as ng
import numpy as np
from netgen.meshing import FaceDescriptor
from netgen.meshing import Mesh as NgMesh

from fieldline_engine.mesh.tet_model import TetModel

DEFAULT_LABEL = "default"


def build_ngsolve_mesh(model: TetModel, face_labels: np.ndarray | None = None) -> ng.Mesh:
    labels = np.full(len(model.faces), DEFAULT_LABEL, dtype=object) if face_labels is None else face_labels
    m = NgMesh(dim=3)
    m.AddPoints(np.ascontiguousarray(model.vertices, dtype=np.float64))
    for r in range(len(model.region_names)):
        m.SetMaterial(r + 1, f"body{r}")  # display names may hold regex characters
        tets = model.tetrahedra[model.regions == r]
        if len(tets):
            m.AddElements(dim=3, index=r + 1, data=np.ascontiguousarray(tets, dtype=np.int32), base=0)

    # One face descriptor per (label, inner body, outer body).
    keys = np.stack([model.face_inner_region, model.face_outer_region], axis=1)
    descriptors: dict[tuple[str, int, int], int] = {}
    groups: dict[int, list[int]] = {}
    for i, (label, (inner, outer)) in enumerate(zip(labels, keys, strict=True)):
        key = (str(label), int(inner), int(outer))
        if key not in descriptors:
            fd_index = len(descriptors) + 1
            descriptors[key] = fd_index
            m.Add(FaceDescriptor(surfnr=fd_index, domin=key[1] + 1, domout=key[2] + 1, bc=fd_index))
            m.SetBCName(fd_index - 1, key[0])
        groups.setdefault(descriptors[key], []).append(i)
    for fd_index, rows in groups.items():
        tris = np.ascontiguousarray(model.faces[np.asarray(rows)], dtype=np.int32)
        m.AddElements(dim=2, index=fd_index, data=tris, base=0)
    return ng.Mesh(m)
