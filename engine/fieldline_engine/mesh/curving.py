"""Curved geometry (`useCurvedGeometry`, or `useCurvedMesh`).

- A netgen mesh that still carries its OpenCascade geometry (meshed in the engine from CAD) is curved
  exactly onto the CAD surfaces with `mesh.Curve(order)`.
- A model uploaded as tetrahedra has no CAD geometry left, so the engine reconstructs smooth surfaces
  from the triangulation itself: surface triangles are grouped into smooth patches (creases above 30°
  split them), each vertex gets one normal per patch, and every surface edge becomes a quadratic arc
  whose end tangents are perpendicular to those normals (the midpoint moves by
  −⅛[((P₂−P₁)·N₁)N₁ + ((P₁−P₂)·N₂)N₂], exact to O(h³) on smooth surfaces; on a crease edge N N becomes
  the projection onto the span of both patches' normals at that end, so the arc lies in both tangent
  planes: the rim of a flat cap stays in the cap's plane). The arcs become a second-order isoparametric deformation of the
  mesh (`Mesh.SetDeformation`), so every integral sees the curved boundary and body interfaces; the
  vertices, which already lie on the true surface, do not move. Higher element orders keep this
  quadratic geometry. Flat faces stay flat, so boxes are unchanged.
"""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.mesh.tet_model import TetModel

CREASE_DEGREES = 30.0


def curve_mesh(mesh: ng.Mesh, model: TetModel | None, config: dict[str, Any], order: int) -> dict[str, Any]:
    """Curves the mesh when the config asks for it; returns how, for solver_info."""
    if not (config.get("useCurvedGeometry") or config.get("useCurvedMesh")):
        return {"curved": False}
    if model is None:  # a netgen mesh with its CAD geometry
        mesh.Curve(order)
        return {"curved": True, "method": "CAD geometry", "geometry_order": order}
    moved = curve_uploaded(mesh, model)
    if model.true_surface is not None:
        return {
            "curved": True,
            "method": "CAD geometry (edge midpoints on the CAD faces)",
            "geometry_order": 2,
            "curved_edges": moved,
        }
    return {
        "curved": True,
        "method": "reconstructed from the surface triangulation (no CAD geometry in an uploaded mesh)",
        "geometry_order": 2,
        "curved_edges": moved,
    }


def _surface_triangles(model: TetModel) -> tuple[np.ndarray, np.ndarray]:
    """Boundary and interface triangles, and a surface id per triangle (creases never cross ids)."""
    tris = [model.faces]
    # The unordered pair of bodies: a refined model lists an interface face from either side (its inner body is
    # whichever tetrahedron came first), and one smooth interface must stay one surface.
    low = np.minimum(model.face_inner_region, model.face_outer_region)
    high = np.maximum(model.face_inner_region, model.face_outer_region)
    ids = [np.where(model.face_outer_region < 0, 0, 1 + low * 1000 + high)]
    if model.interface_faces is not None and len(model.interface_faces):
        tris.append(model.interface_faces)
        r = np.sort(model.interface_regions, axis=1)
        ids.append(1 + r[:, 0] * 1000 + r[:, 1])
    return np.concatenate(tris), np.concatenate(ids)


def _patches(tris: np.ndarray, normals: np.ndarray, surface: np.ndarray) -> tuple[np.ndarray, dict]:
    """Smooth patches by flood fill across edges whose two triangles bend less than the crease angle."""
    edges = np.sort(tris[:, [[0, 1], [1, 2], [2, 0]]].reshape(-1, 2), axis=1)
    owner = np.repeat(np.arange(len(tris)), 3)
    edge_tris: dict[tuple[int, int], list[int]] = {}
    for (a, b), t in zip(edges.tolist(), owner.tolist(), strict=True):
        edge_tris.setdefault((a, b), []).append(t)
    cos_crease = np.cos(np.radians(CREASE_DEGREES))
    parent = np.arange(len(tris))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for ts in edge_tris.values():
        if len(ts) == 2:
            a, b = ts
            if surface[a] == surface[b] and abs(float(normals[a] @ normals[b])) >= cos_crease:
                parent[root(a)] = root(b)
    return np.array([root(i) for i in range(len(tris))]), edge_tris


# Two triangles whose normals differ by less than this angle (radians) are one plane: vertex normals within a
# fan of them differ by ~1e-13 at most, moving a midpoint by ~1e-14 of the edge, below the 1e-12 that counts.
_COPLANAR_SINE = 1e-14


def _piecewise_flat(tris: np.ndarray, normals: np.ndarray, surface: np.ndarray) -> bool:
    """Whether every pair of triangles that `_patches` would join (one surface, bending less than the crease
    angle across a shared edge) is coplanar, so each smooth patch is flat (a box, an L-shaped prism)."""
    edges = np.sort(tris[:, [[0, 1], [1, 2], [2, 0]]].reshape(-1, 2), axis=1)
    owner = np.repeat(np.arange(len(tris)), 3)
    order = np.lexsort((edges[:, 1], edges[:, 0]))
    edges, owner = edges[order], owner[order]
    same = np.all(edges[1:] == edges[:-1], axis=1)
    # Only edges with exactly two triangles join patches (as in _patches).
    before = np.concatenate([[False], same[:-1]])
    after = np.concatenate([same[1:], [False]])
    pair = same & ~before & ~after
    a, b = owner[:-1][pair], owner[1:][pair]
    joined = (surface[a] == surface[b]) & (
        np.abs(np.einsum("ij,ij->i", normals[a], normals[b])) >= np.cos(np.radians(CREASE_DEGREES))
    )
    sine = np.linalg.norm(np.cross(normals[a][joined], normals[b][joined]), axis=1)
    return bool(np.all(sine <= _COPLANAR_SINE))


def edge_displacements(model: TetModel) -> dict[tuple[int, int], np.ndarray]:
    """Midpoint displacement of every curved surface edge (sorted vertex pair → vector, metres); flat
    edges are left out. The quadratic arc through an edge is its midpoint moved by this vector."""
    tris, surface = _surface_triangles(model)
    p = model.vertices
    raw = np.cross(p[tris[:, 1]] - p[tris[:, 0]], p[tris[:, 2]] - p[tris[:, 0]])
    # Orient interface normals consistently within a patch only matters up to sign: the formula uses N N.
    normals = raw / np.linalg.norm(raw, axis=1, keepdims=True)
    if _piecewise_flat(tris, normals, surface):
        return {}  # every patch is a plane: no edge moves (what the loops below would find, at a fraction of the time)
    patch, edge_tris = _patches(tris, normals, surface)

    # One area-weighted normal per (vertex, patch); signs aligned with the first triangle seen.
    vertex_normal: dict[tuple[int, int], np.ndarray] = {}
    for t, tri in enumerate(tris.tolist()):
        for v in tri:
            key = (v, int(patch[t]))
            if key in vertex_normal:
                n = vertex_normal[key]
                vertex_normal[key] = n + (raw[t] if n @ raw[t] >= 0 else -raw[t])
            else:
                vertex_normal[key] = raw[t].copy()
    for key, n in vertex_normal.items():
        vertex_normal[key] = n / np.linalg.norm(n)

    displacement: dict[tuple[int, int], np.ndarray] = {}
    for (a, b), ts in edge_tris.items():
        pids = sorted({int(patch[t]) for t in ts})
        c = p[b] - p[a]
        # The arc's end tangents lie in the tangent plane of every patch the edge borders: at each end, the
        # chord loses its part in the span of those patches' normals. On a crease (two patches) that keeps the
        # rim of a flat cap in the cap's plane; summing each patch's own correction instead let the wall's
        # vertex normals, tilted by their triangles, lift the cap's rim (and with it the cap's patches).
        d = -0.125 * (
            _onto_span(c, [vertex_normal[(a, pid)] for pid in pids])
            - _onto_span(c, [vertex_normal[(b, pid)] for pid in pids])
        )
        if np.linalg.norm(d) > 1e-12 * np.linalg.norm(c):
            displacement[(a, b)] = d
    return displacement


def _onto_span(c: np.ndarray, normals: list[np.ndarray]) -> np.ndarray:
    """The orthogonal projection of c onto the span of the unit normals (Gram–Schmidt)."""
    basis: list[np.ndarray] = []
    for n in normals:
        u = n - sum(((n @ e) * e for e in basis), np.zeros(3))
        size = np.linalg.norm(u)
        if size > 1e-6:
            basis.append(u / size)
    return sum(((c @ e) * e for e in basis), np.zeros(3))


def exact_edge_displacements(model: TetModel) -> dict[tuple[int, int], np.ndarray]:
    """Midpoint displacements onto the model's true surface (`model.true_surface`, the CAD): each listed
    surface edge's chord midpoint is projected onto its CAD face (onto the curve two faces share for an
    edge on a crease). The reconstruction's vertex normals are biased where neighbouring triangles differ
    in size — as they do after local refinement — which moved a refined cavity's TM010 by ±0.2 % from
    pass to pass. Edges of unlisted interfaces keep the reconstruction's arcs."""
    displacement = edge_displacements(model)
    faces = model.faces
    if not len(faces):
        return displacement
    edges = np.sort(faces[:, [[0, 1], [1, 2], [2, 0]]].reshape(-1, 2), axis=1)
    rows = np.repeat(np.arange(len(faces)), 3)
    order = np.lexsort((edges[:, 1], edges[:, 0]))
    edges, rows = edges[order], rows[order]
    first = np.ones(len(edges), dtype=bool)
    first[1:] = np.any(edges[1:] != edges[:-1], axis=1)
    starts = np.flatnonzero(first)
    unique, row = edges[starts], rows[starts]
    other = np.full(len(unique), -1, dtype=np.int64)
    paired = starts + 1 < len(edges)
    nxt = np.minimum(starts + 1, len(edges) - 1)
    same = paired & ~first[nxt]
    other[same] = rows[nxt[same]]
    p = model.vertices
    mid = 0.5 * (p[unique[:, 0]] + p[unique[:, 1]])
    onto = model.true_surface.project(model, faces[row], row, mid, other)
    lengths = np.linalg.norm(p[unique[:, 1]] - p[unique[:, 0]], axis=1)
    for (a, b), d, length in zip(unique.tolist(), onto - mid, lengths, strict=True):
        if np.linalg.norm(d) > 1e-12 * length:
            displacement[(a, b)] = d
        else:
            displacement.pop((a, b), None)
    return displacement


def curve_uploaded(mesh: ng.Mesh, model: TetModel) -> int:
    displacement = (
        edge_displacements(model) if model.true_surface is None else exact_edge_displacements(model)
    )
    if not displacement:
        return 0

    space = ng.VectorH1(mesh, order=2)
    deformation = ng.GridFunction(space)
    values = deformation.vec.FV().NumPy()
    bubble_at_midpoint = _edge_bubble_midpoint(space, mesh)
    moved = 0
    for edge in mesh.edges:
        v = edge.vertices
        key = (min(v[0].nr, v[1].nr), max(v[0].nr, v[1].nr))
        d = displacement.get(key)
        if d is not None:
            dofs = space.GetDofNrs(ng.NodeId(ng.EDGE, edge.nr))
            values[list(dofs)] = d / bubble_at_midpoint
            moved += 1
    mesh.SetDeformation(deformation)
    return moved


def _edge_bubble_midpoint(space: ng.FESpace, mesh: ng.Mesh) -> float:
    """Value of NGSolve's quadratic edge shape function at the edge midpoint (−1/8 in 6.2.26xx)."""
    probe = ng.GridFunction(space)
    edge = next(iter(mesh.edges))
    probe.vec[space.GetDofNrs(ng.NodeId(ng.EDGE, edge.nr))[0]] = 1.0
    a, b = (np.array(mesh.vertices[ng_vertex.nr].point) for ng_vertex in edge.vertices)
    mid = 0.5 * (a + b)
    return float(probe(mesh(*mid))[0])
