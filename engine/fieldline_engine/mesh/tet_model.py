"""A tetrahedral model as uploaded (vertices, tetrahedra, surface faces, body ids) and its surface topology.

Face ids are the row indices of `faces`: the surface triangles of the uploaded or meshed model.
Users pick boundary conditions by face id, so the order of the given faces is preserved.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np

from fieldline_engine.errors import InvalidInput
from fieldline_engine.mesh.units import metres_per_unit

# For each local face of a tetrahedron: its three local vertices, then the opposite vertex.
_LOCAL_FACES = np.array([[1, 2, 3, 0], [0, 2, 3, 1], [0, 1, 3, 2], [0, 1, 2, 3]])


@dataclass
class TetModel:
    vertices: np.ndarray  # (nv, 3) float64, in metres
    tetrahedra: np.ndarray  # (nt, 4) int64, positively oriented
    regions: np.ndarray  # (nt,) int64, 0-based body id
    region_names: list[str]
    faces: np.ndarray  # (nf, 3) int64 surface triangles, oriented out of `face_inner_region`
    face_inner_region: np.ndarray  # (nf,) body id on the side the normal points away from
    face_outer_region: np.ndarray  # (nf,) body id the normal points into, -1 for the outer boundary
    unit_scale: float  # metres per model unit
    # Faces between two bodies that `faces` does not list (they carry no face id): the NGSolve mesh
    # still gets them as boundary elements so solvers can constrain interfaces.
    interface_faces: np.ndarray | None = None
    interface_regions: np.ndarray | None = None  # (ni, 2) body ids on either side
    # After adaptive refinement (core/adaptive/): the 1-based face id of the uploaded face each row was cut
    # from, so conditions given by face id still land on every piece; None while rows are the face ids.
    # 0 marks a face the engine added (the outside of the air a magnetic run meshes around a bare device).
    face_ids: np.ndarray | None = None
    # After adaptive refinement: each vertex's two parent vertices (the edge it bisected), -1 for vertices
    # of the uploaded mesh, which keep their indices.
    vertex_parents: np.ndarray | None = None
    # The true surface the model stands for, when the job carries it (an adaptive run on a model meshed
    # from CAD: core/adaptive/cad_surface.py): curved geometry then bends surface edges onto it exactly
    # instead of onto the surface reconstructed from the triangulation (mesh/curving.py).
    true_surface: Any = None
    # After adaptive refinement: (n, 6) rows of a surface triangle's sorted vertex triple and the sorted triple
    # of the unrefined model's triangle it was cut from (core/adaptive/surface_origin.py); None when unrefined.
    surface_origin: np.ndarray | None = None

    @property
    def face_id_count(self) -> int:
        """How many face ids the user can name: the uploaded model's surface faces."""
        return (
            int(self.face_ids.max()) if self.face_ids is not None and len(self.face_ids) else len(self.faces)
        )

    @property
    def nv(self) -> int:
        return int(self.vertices.shape[0])

    @property
    def nt(self) -> int:
        return int(self.tetrahedra.shape[0])


def _as_int_array(value: Any, width: int, what: str) -> np.ndarray:
    arr = np.asarray(value if value is not None else [], dtype=np.int64)
    if arr.size == 0:
        return np.zeros((0, width), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != width:
        raise InvalidInput(f"Invalid mesh data: every {what} needs {width} vertex indices.")
    return arr


def _signed_volumes(vertices: np.ndarray, tets: np.ndarray) -> np.ndarray:
    a, b, c, d = (vertices[tets[:, i]] for i in range(4))
    return np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a) / 6.0


def _face_keys(tris: np.ndarray, nv: int) -> np.ndarray:
    s = np.sort(tris, axis=1).astype(np.int64)
    if nv > 2_000_000:
        raise InvalidInput("Models with more than 2 million vertices are not supported yet.")
    return (s[:, 0] * nv + s[:, 1]) * nv + s[:, 2]


def _orient_out_of(vertices: np.ndarray, tris: np.ndarray, opposite: np.ndarray) -> np.ndarray:
    """Orders each triangle so its right-hand normal points away from `opposite` (NGSolve's normal)."""
    a, b, c = (vertices[tris[:, i]] for i in range(3))
    n = np.cross(b - a, c - a)
    inward = np.einsum("ij,ij->i", n, vertices[opposite] - a) > 0
    out = tris.copy()
    out[inward, 1], out[inward, 2] = tris[inward, 2], tris[inward, 1]
    return out


def _given(mesh_data: dict[str, Any], key: str) -> Any:
    """mesh_data[key], or [] when absent; lists from JSON and NumPy arrays (refinement's) alike."""
    value = mesh_data.get(key)
    return [] if value is None else value


def model_from_mesh_data(mesh_data: dict[str, Any]) -> TetModel:
    scale = metres_per_unit(mesh_data.get("units"))
    vertices = np.asarray(_given(mesh_data, "vertices"), dtype=np.float64)
    if vertices.ndim != 2 or vertices.shape[0] == 0 or vertices.shape[1] != 3:
        raise InvalidInput("Invalid mesh data: No vertices found.")
    if not np.all(np.isfinite(vertices)):
        raise InvalidInput("Invalid mesh data: a vertex coordinate is not a finite number.")
    vertices = vertices * scale
    nv = vertices.shape[0]
    tets = _as_int_array(mesh_data.get("tetrahedra"), 4, "tetrahedron")
    if tets.shape[0] == 0:
        raise InvalidInput("Invalid mesh data: the analysis needs a volume mesh. Generate Volume Mesh first.")
    if tets.min() < 0 or tets.max() >= nv:
        raise InvalidInput("Invalid mesh data: a tetrahedron refers to a missing vertex.")

    vol = _signed_volumes(vertices, tets)
    if np.any(np.abs(vol) <= 1e-30 * max(1.0, float(np.ptp(vertices)) ** 3)):
        raise InvalidInput("Invalid mesh data: the volume mesh has tetrahedra with zero volume.")
    neg = vol < 0
    tets = tets.copy()
    tets[neg, 2], tets[neg, 3] = tets[neg, 3], tets[neg, 2].copy()

    regions = mesh_data.get("tetrahedron_regions")
    regions = np.asarray(
        regions if regions is not None and np.size(regions) else np.zeros(tets.shape[0]), dtype=np.int64
    )
    if regions.shape != (tets.shape[0],) or regions.min() < 0:
        raise InvalidInput("Invalid mesh data: tetrahedron_regions must give one body id per tetrahedron.")
    n_regions = int(regions.max()) + 1
    names = list(mesh_data.get("region_names") or [])
    names += [f"body{i}" for i in range(len(names), n_regions)]

    faces, inner, outer = _surface_faces(vertices, tets, regions, mesh_data.get("faces"))
    model = TetModel(vertices, tets, regions, names[:n_regions], faces, inner, outer, scale)
    if n_regions > 1:
        model.interface_faces, model.interface_regions = _unlisted_interfaces(tets, regions, faces, nv)
    return model


def _unlisted_interfaces(
    tets: np.ndarray, regions: np.ndarray, listed: np.ndarray, nv: int
) -> tuple[np.ndarray, np.ndarray]:
    all_tris = tets[:, _LOCAL_FACES[:, :3]].reshape(-1, 3)
    all_tet = np.repeat(np.arange(tets.shape[0]), 4)
    keys = _face_keys(all_tris, nv)
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    pair = np.nonzero(sk[1:] == sk[:-1])[0]  # positions of interior faces (two entries each)
    first, second = order[pair], order[pair + 1]
    r1, r2 = regions[all_tet[first]], regions[all_tet[second]]
    differ = r1 != r2
    first, second = first[differ], second[differ]
    keep = ~np.isin(sk[pair][differ], _face_keys(listed, nv))
    tris = all_tris[first[keep]]
    return tris, np.stack([regions[all_tet[first[keep]]], regions[all_tet[second[keep]]]], axis=1)


def _surface_faces(
    vertices: np.ndarray, tets: np.ndarray, regions: np.ndarray, given: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    nv = vertices.shape[0]
    all_tris = tets[:, _LOCAL_FACES[:, :3]].reshape(-1, 3)
    all_opp = tets[:, _LOCAL_FACES[:, 3]].reshape(-1)
    all_tet = np.repeat(np.arange(tets.shape[0]), 4)
    keys = _face_keys(all_tris, nv)
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    uniq, first, counts = np.unique(sorted_keys, return_index=True, return_counts=True)
    if np.any(counts > 2):
        raise InvalidInput(
            "Invalid mesh data: non-manifold volume mesh (a face is shared by more than two tetrahedra)."
        )

    def lookup(face_keys: np.ndarray) -> np.ndarray:
        pos = np.searchsorted(uniq, face_keys)
        pos = np.clip(pos, 0, len(uniq) - 1)
        return np.where(uniq[pos] == face_keys, pos, -1)

    boundary_slots = np.nonzero(counts == 1)[0]
    given_faces = _as_int_array(given, 3, "face") if given is not None and len(given) > 0 else None
    if given_faces is not None and (given_faces.min() < 0 or given_faces.max() >= nv):
        raise InvalidInput("Invalid mesh data: a face refers to a missing vertex.")
    slots: np.ndarray
    if given_faces is not None:
        given_slots = lookup(_face_keys(given_faces, nv))
        if np.all(given_slots >= 0):
            covered = np.zeros(len(uniq), dtype=bool)
            covered[given_slots] = True
            slots = np.concatenate([given_slots, boundary_slots[~covered[boundary_slots]]])
        else:  # faces of a different (pre-meshing) surface: fall back to the volume mesh's boundary
            slots = boundary_slots
    else:
        slots = boundary_slots

    first_entry = order[first[slots]]
    tris = all_tris[first_entry]
    tris = _orient_out_of(vertices, tris, all_opp[first_entry])
    inner = regions[all_tet[first_entry]]
    outer = np.full(len(slots), -1, dtype=np.int64)
    shared = counts[slots] == 2
    if np.any(shared):
        second_entry = order[first[slots[shared]] + 1]
        outer[shared] = regions[all_tet[second_entry]]
    return tris, inner, outer
