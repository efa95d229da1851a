"""The result every mesher produces, and the checks that make it trustworthy.

A VolumeMesh is valid when every tetrahedron has positive volume, every surface triangle is a face of
a tetrahedron (the surface mesh was preserved), and every boundary face of the tetrahedra is one of
the surface triangles (the mesh is watertight: no tetrahedron face is left uncovered).
"""

from dataclasses import dataclass, field

import numpy as np

from fieldline_engine.errors import EngineError

_LOCAL_FACES = np.array([[1, 2, 3, 0], [0, 3, 2, 1], [0, 1, 3, 2], [0, 2, 1, 3]])  # outward, + opposite


@dataclass
class VolumeMesh:
    vertices: np.ndarray  # (n, 3) model units
    tets: np.ndarray  # (t, 4) positively oriented
    regions: np.ndarray  # (t,) body id
    region_names: list[str]
    faces: np.ndarray  # (f, 3) surface triangles (outer boundary and interfaces between bodies)
    face_patches: np.ndarray  # (f,) 1-based CAD face / surface patch id
    mesher: str = ""
    notes: list[str] = field(default_factory=list)


def compact(
    vertices: np.ndarray, tets: np.ndarray, faces: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drops vertices no element uses and renumbers."""
    used = np.unique(np.concatenate([tets.reshape(-1), faces.reshape(-1)]))
    remap = np.full(len(vertices), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return vertices[used], remap[tets], remap[faces]


def orient_tets(vertices: np.ndarray, tets: np.ndarray) -> np.ndarray:
    a, b, c, d = (vertices[tets[:, i]] for i in range(4))
    vol = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)
    out = tets.copy()
    neg = vol < 0
    out[neg, 2], out[neg, 3] = tets[neg, 3], tets[neg, 2]
    return out


def _keys(tris: np.ndarray) -> np.ndarray:
    s = np.sort(tris, axis=1)
    return np.ascontiguousarray(s).view([("a", s.dtype), ("b", s.dtype), ("c", s.dtype)]).reshape(-1)


def finalize(mesh: VolumeMesh) -> VolumeMesh:
    """Orients tetrahedra positively and surface triangles out of the lower-numbered adjacent body,
    then validates: positive volumes, surface preserved, watertight. Raises EngineError otherwise."""
    v, tets, faces = compact(mesh.vertices, mesh.tets, mesh.faces)
    tets = orient_tets(v, tets)
    a, b, c, d = (v[tets[:, i]] for i in range(4))
    vol = np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) / 6
    scale = float(np.ptp(v, axis=0).max()) if len(v) else 1.0
    if len(tets) == 0:
        raise EngineError("meshing_failed", "Tetrahedralization failed: the mesher produced no tetrahedra.")
    if np.any(vol <= 1e-15 * scale**3):
        raise EngineError(
            "meshing_failed",
            f"Tetrahedralization failed: {(vol <= 1e-15 * scale**3).sum()} tetrahedra have zero volume.",
        )
    all_faces = tets[:, _LOCAL_FACES[:, :3]].reshape(-1, 3)
    owner = np.repeat(np.arange(len(tets)), 4)
    keys = _keys(all_faces)
    order = np.argsort(keys, kind="stable")
    skeys = keys[order]
    uniq, first, counts = np.unique(skeys, return_index=True, return_counts=True)
    if np.any(counts > 2):
        raise EngineError(
            "meshing_failed",
            "Tetrahedralization failed: a face is shared by more than two tetrahedra (non-manifold volume mesh).",
        )
    fkeys = _keys(faces)
    pos = np.clip(np.searchsorted(uniq, fkeys), 0, len(uniq) - 1)
    found = uniq[pos] == fkeys
    if not found.all():
        raise EngineError(
            "meshing_failed",
            f"Tetrahedralization failed: {int((~found).sum())} surface triangles are not faces of the volume mesh "
            "(the surface mesh was not preserved).",
        )
    boundary = np.zeros(len(uniq), dtype=bool)
    boundary[counts == 1] = True
    covered = np.zeros(len(uniq), dtype=bool)
    covered[pos] = True
    if np.any(boundary & ~covered):
        raise EngineError(
            "meshing_failed",
            f"Tetrahedralization failed: {int((boundary & ~covered).sum())} boundary faces of the volume mesh are "
            "not on the surface (the mesh is not watertight).",
        )
    # Orient each surface triangle out of its first adjacent tetrahedron in region order.
    entries = order[first[pos]]
    second = np.where(counts[pos] == 2, order[np.minimum(first[pos] + 1, len(order) - 1)], entries)
    r1, r2 = mesh.regions[owner[entries]], mesh.regions[owner[second]]
    pick = np.where(r2 < r1, second, entries)
    oriented = all_faces[pick]
    return VolumeMesh(
        v, tets, mesh.regions, mesh.region_names, oriented, mesh.face_patches, mesh.mesher, mesh.notes
    )
