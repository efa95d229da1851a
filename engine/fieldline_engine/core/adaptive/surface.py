"""Where new surface vertices go. An uploaded tetrahedral model has no CAD surface left, so the surface
it stands for is the one mesh/curving.py reconstructs: each surface triangle becomes the quadratic patch
through its vertices and its edges' arcs, x(λ) = Σ λᵢPᵢ + 4 Σ_{i<j} λᵢλⱼ d_ij (d_ij: the arc's midpoint
displacement). Flat faces stay flat; a new vertex on a curved face lands on that patch instead of on the
chord, so refinement converges to the curved body rather than to its first faceting. Models meshed from
CAD in the engine use core/adaptive/cad_surface.py instead.

The surface is reconstructed ONCE, from the unrefined model (the upload, or the device with the air a
magnetic run adds), and every pass places its new vertices on those same patches, found through the
triangle each refined triangle was cut from (surface_origin.py). Rebuilt from each pass's facets instead,
the reconstruction took the previous pass's approximations for true surface points: on a cylinder the flat
caps warped a little more every pass (their rim arcs lean with the wall's vertex normals) and a sphere's new
vertices kept their error instead of sampling one fixed surface (tests/adaptive/test_adaptive_surface_drift.py).
"""

import numpy as np

from fieldline_engine.core.adaptive.surface_origin import find_triples, origin_triangles
from fieldline_engine.mesh.curving import edge_displacements
from fieldline_engine.mesh.tet_model import TetModel

_EDGES = ((0, 1), (1, 2), (2, 0))


class ReconstructedSurface:
    """The surface of the unrefined models it is given; a refined model's points go onto the surface of the
    unrefined model it descends from (a run's passes: the upload, or the device with its added air)."""

    def __init__(self) -> None:
        self._sources: list[_Patches] = []  # the unrefined models met, newest first

    def project(
        self,
        model: TetModel,
        triangles: np.ndarray,
        rows: np.ndarray,
        points: np.ndarray,
        other_rows: np.ndarray | None = None,
    ) -> np.ndarray:
        # On a crease edge both triangles give the same point: the edge's arc is shared by both patches.
        origin = origin_triangles(model, triangles)
        if model.surface_origin is None:
            return self._source(model).place(origin, points)
        for source in self._sources:
            placed, known = source.place_known(origin, points)
            if known.all():
                return placed
        # A refined model whose unrefined source was never met here: its own facets' reconstruction.
        return _Patches(model).place(np.sort(np.asarray(triangles, dtype=np.int64), axis=1), points)

    def _source(self, model: TetModel) -> "_Patches":
        for source in self._sources:
            if source.model is model:
                return source
        source = _Patches(model)
        self._sources = [source, *self._sources[:3]]
        return source


class _Patches:
    """The quadratic patches of one model's surface triangles (boundary and interfaces)."""

    def __init__(self, model: TetModel) -> None:
        self.model = model
        self.vertices = model.vertices.copy()
        displacement = edge_displacements(model)
        self.curved = bool(displacement)
        tris = [model.faces]
        if model.interface_faces is not None and len(model.interface_faces):
            tris.append(model.interface_faces)
        self.triangles = np.concatenate(tris).astype(np.int64)
        self.sorted = np.sort(self.triangles, axis=1)
        zero = np.zeros(3)
        self.arcs = np.zeros((len(self.triangles), 3, 3))
        if self.curved:
            for k, (i, j) in enumerate(_EDGES):
                a, b = self.triangles[:, i], self.triangles[:, j]
                self.arcs[:, k] = [
                    displacement.get((min(x, y), max(x, y)), zero)
                    for x, y in zip(a.tolist(), b.tolist(), strict=True)
                ]

    def place(self, origin: np.ndarray, points: np.ndarray) -> np.ndarray:
        return self.place_known(origin, points)[0]

    def place_known(self, origin: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each point onto the patch of its origin triangle: its barycentric coordinates in the flat triangle
        (the point's orthogonal projection onto its plane, kept inside it), lifted by the edges' arcs; and
        which origins are triangles of this surface (the others are returned as given)."""
        row = find_triples(self.sorted, origin)
        known = row >= 0
        if not self.curved or not known.any():
            return points, known
        out = points.copy()
        tri, p = self.triangles[row[known]], self.vertices
        lam = np.clip(_barycentric(p[tri[:, 0]], p[tri[:, 1]], p[tri[:, 2]], points[known]), 0.0, None)
        lam /= lam.sum(axis=1, keepdims=True)
        placed = np.einsum("mi,mij->mj", lam, p[tri])
        arcs = self.arcs[row[known]]
        for k, (i, j) in enumerate(_EDGES):
            placed += 4.0 * (lam[:, i] * lam[:, j])[:, None] * arcs[:, k]
        out[known] = placed
        return out, known


def _barycentric(a: np.ndarray, b: np.ndarray, c: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Barycentric coordinates of points x in the planes of triangles abc (least squares: x lies on them)."""
    e1, e2, r = b - a, c - a, x - a
    d11 = np.einsum("ij,ij->i", e1, e1)
    d12 = np.einsum("ij,ij->i", e1, e2)
    d22 = np.einsum("ij,ij->i", e2, e2)
    r1 = np.einsum("ij,ij->i", r, e1)
    r2 = np.einsum("ij,ij->i", r, e2)
    det = d11 * d22 - d12 * d12
    l2 = (d22 * r1 - d12 * r2) / det
    l3 = (d11 * r2 - d12 * r1) / det
    return np.stack([1.0 - l2 - l3, l2, l3], axis=1)
