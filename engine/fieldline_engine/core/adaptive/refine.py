"""One refinement step of a TetModel: conforming bisection of the marked tetrahedra by Netgen
(`SetRefinementFlags` + `Refine`), then new surface vertices moved onto the true surface
(core/adaptive/surface.py), with bodies, face ids and parent vertices carried over.

Netgen keeps the old points first and appends the new ones, and records each new surface element's
parent, so a refined triangle knows the uploaded face it was cut from (`TetModel.face_ids`). The refined
model is rebuilt through `model_from_mesh_data`, the same path an upload takes (orientation, surface and
interface faces), with its faces listed in the refined order so face rows keep their ids.
"""

from typing import Protocol

import numpy as np

from fieldline_engine.core.adaptive.surface_origin import origin_triangles
from fieldline_engine.errors import EngineError
from fieldline_engine.mesh.ngsolve_mesh import build_ngsolve_mesh, element_order
from fieldline_engine.mesh.tet_model import TetModel, model_from_mesh_data


class SurfaceProjector(Protocol):
    """Places new surface vertices on the true surface. `triangles`: (m, 3) vertex indices of the parent
    model's surface triangles each point lies in, `rows`: their rows in the parent's `faces` (−1 for an
    unlisted interface between bodies), `points`: (m, 3) their positions on the flat triangles,
    `other_rows`: for a point on an edge between two listed faces, the other face's row (else −1)."""

    def project(
        self,
        model: TetModel,
        triangles: np.ndarray,
        rows: np.ndarray,
        points: np.ndarray,
        other_rows: np.ndarray | None = None,
    ) -> np.ndarray: ...


def refine_model(model: TetModel, marked: np.ndarray, surface: SurfaceProjector | None = None) -> TetModel:
    """`marked`: boolean mask over the model's tetrahedra. Each marked tetrahedron is bisected until its
    size halves (three bisections); neighbours are bisected as far as conformity needs."""
    mesh = build_ngsolve_mesh(model)
    ngmesh = mesh.ngmesh
    # Netgen's surface elements in build order: the listed faces' rows (grouped by descriptor), then the
    # interface faces. Found again by vertex keys rather than re-deriving the grouping.
    parent_surface = np.asarray(ngmesh.Elements2D().NumPy()["nodes"][:, :3], dtype=np.int64) - 1
    n_parent_surface = len(parent_surface)
    mesh.SetRefinementFlags([bool(x) for x in np.asarray(marked, dtype=bool)[element_order(model)]])
    mesh.Refine()

    coords = np.array(ngmesh.Coordinates(), dtype=np.float64)
    e3 = ngmesh.Elements3D().NumPy()
    tets = np.asarray(e3["nodes"][:, :4], dtype=np.int64) - 1
    regions = np.asarray(e3["index"], dtype=np.int64) - 1  # domain r + 1 is body r (build_ngsolve_mesh)
    e2 = ngmesh.Elements2D().NumPy()
    tris = np.asarray(e2["nodes"][:, :3], dtype=np.int64) - 1
    root = _root_surface_elements(ngmesh, len(tris), n_parent_surface)
    # the unrefined model's triangle each refined one descends from, through every pass (surface_origin.py)
    origin = origin_triangles(model, parent_surface)[root]

    listed_row = _rows_of(parent_surface, model.faces, model.nv)  # parent surface element → face row or −1
    row_of_child = listed_row[root]
    listed = row_of_child >= 0
    parent_ids = model.face_ids if model.face_ids is not None else np.arange(1, len(model.faces) + 1)

    nv_old = model.nv
    parents = np.full((len(coords), 2), -1, dtype=np.int64)
    if model.vertex_parents is not None:
        parents[:nv_old] = model.vertex_parents
    for v in range(nv_old, len(coords)):
        parents[v] = mesh.GetParentVertices(v)

    if surface is not None:
        projected = _project_new_surface_vertices(
            model, surface, coords, tris, root, parent_surface, listed_row, nv_old
        )
        if not np.array_equal(projected, coords):  # flat faces move nothing: no orientation to check
            coords = _keep_orientation(coords, projected, tets, nv_old)

    refined = model_from_mesh_data(
        {
            "vertices": coords / model.unit_scale,
            "tetrahedra": tets,
            "tetrahedron_regions": regions,
            "region_names": list(model.region_names),
            "faces": tris[listed],
            "units": None,
        }
    )
    refined.vertices = coords  # exact metres, not a round trip through the unit
    refined.unit_scale = model.unit_scale
    if len(refined.faces) != int(listed.sum()):
        raise EngineError("engine_error", "Adaptive refinement lost track of the model's surface faces.")
    refined.face_ids = parent_ids[row_of_child[listed]]
    refined.vertex_parents = parents
    refined.true_surface = model.true_surface
    refined.surface_origin = np.hstack([np.sort(tris, axis=1), origin])
    return refined


def _root_surface_elements(ngmesh, count: int, n_parent: int) -> np.ndarray:
    """For each refined surface element, the surface element of the unrefined mesh it descends from."""
    raw = ngmesh.parentsurfaceelements.NumPy()
    direct = np.asarray(raw[raw.dtype.names[0]] if raw.dtype.names else raw, dtype=np.int64).ravel()[:count]
    root = np.arange(count)
    root[direct >= 0] = direct[direct >= 0]
    for _ in range(64):  # chains are as long as the bisections of one element in this step
        step = direct[root]
        deeper = (root >= n_parent) & (step >= 0)
        if not deeper.any():
            break
        root[deeper] = step[deeper]
    if np.any(root >= n_parent):
        raise EngineError("engine_error", "Adaptive refinement could not trace a refined surface element.")
    return root


def _keys(tris: np.ndarray, nv: int) -> np.ndarray:
    s = np.sort(tris, axis=1).astype(np.int64)
    return (s[:, 0] * nv + s[:, 1]) * nv + s[:, 2]


def _rows_of(elements: np.ndarray, faces: np.ndarray, nv: int) -> np.ndarray:
    face_keys = _keys(faces, nv)
    order = np.argsort(face_keys)
    element_keys = _keys(elements, nv)
    pos = np.clip(np.searchsorted(face_keys[order], element_keys), 0, len(order) - 1)
    found = face_keys[order][pos] == element_keys
    return np.where(found, order[pos], -1)


def _project_new_surface_vertices(
    model: TetModel,
    surface: SurfaceProjector,
    coords: np.ndarray,
    tris: np.ndarray,
    root: np.ndarray,
    parent_surface: np.ndarray,
    parent_rows: np.ndarray,
    nv_old: int,
) -> np.ndarray:
    """Every new vertex on a surface triangle lies, before projection, in the flat parent triangle its
    element descends from; the projector maps it onto the true surface there."""
    flat_tris = tris.ravel()
    vertex, first = np.unique(flat_tris, return_index=True)
    new = vertex >= nv_old
    vertex, element = vertex[new], first[new] // 3
    if len(vertex) == 0:
        return coords
    out = coords.copy()
    parent = root[element]
    rows = parent_rows[parent]
    # A vertex on a crease (an edge between two faces) lies in triangles of both: it must land on both
    # surfaces, i.e. on their common edge, not on whichever face was listed first (a vertex of a hole's rim
    # left on the flat face's chord cuts a notch that sharpens with every pass).
    other = np.full(len(vertex), -1, dtype=np.int64)
    incident_vertex = flat_tris
    incident_row = parent_rows[root[np.arange(len(flat_tris)) // 3]]
    position = np.searchsorted(vertex, incident_vertex)
    found = (position < len(vertex)) & (vertex[np.minimum(position, len(vertex) - 1)] == incident_vertex)
    position, incident_row = position[found], incident_row[found]
    differs = (incident_row >= 0) & (incident_row != rows[position])
    other[position[differs]] = incident_row[differs]
    out[vertex] = surface.project(model, parent_surface[parent], rows, coords[vertex], other)
    return out


def _signed_volumes(coords: np.ndarray, tets: np.ndarray) -> np.ndarray:
    a, b, c, d = (coords[tets[:, i]] for i in range(4))
    return np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)


def _keep_orientation(flat: np.ndarray, projected: np.ndarray, tets: np.ndarray, nv_old: int) -> np.ndarray:
    """A new vertex whose move onto the curved surface would turn a thin tetrahedron inside out stays on
    the flat triangle (the next refinement moves the smaller pieces)."""
    before = np.sign(_signed_volumes(flat, tets))
    out = projected.copy()
    for _ in range(8):
        flipped = np.sign(_signed_volumes(out, tets)) != before
        if not flipped.any():
            return out
        vertices = np.unique(tets[flipped])
        vertices = vertices[vertices >= nv_old]
        if len(vertices) == 0:
            break
        out[vertices] = flat[vertices]
    if np.any(np.sign(_signed_volumes(out, tets)) != before):
        raise EngineError("engine_error", "Adaptive refinement turned a tetrahedron inside out.")
    return out
