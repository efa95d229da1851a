"""Where new surface vertices go. An uploaded tetrahedral model has no CAD surface left, so the surface
it stands for is the one mesh/curving.py reconstructs: each surface triangle becomes the quadratic patch
through its vertices and its edges' arcs, x(λ) = Σ λᵢPᵢ + 4 Σ_{i<j} λᵢλⱼ d_ij (d_ij: the arc's midpoint
displacement). Flat faces stay flat; a new vertex on a curved face lands on that patch instead of on the
chord, so refinement converges to the curved body rather than to its first faceting. Models meshed from
CAD in the engine use core/adaptive/cad_surface.py instead.
"""

import numpy as np

from fieldline_engine.mesh.curving import edge_displacements
from fieldline_engine.mesh.tet_model import TetModel


class ReconstructedSurface:
    def project(
        self,
        model: TetModel,
        triangles: np.ndarray,
        rows: np.ndarray,
        points: np.ndarray,
        other_rows: np.ndarray | None = None,
    ) -> np.ndarray:
        # On a crease edge both triangles give the same point: the edge's displacement is shared.
        displacement = edge_displacements(model)
        if not displacement:
            return points
        p = model.vertices
        lam = _barycentric(p[triangles[:, 0]], p[triangles[:, 1]], p[triangles[:, 2]], points)
        out = points.copy()
        for i, j in ((0, 1), (1, 2), (2, 0)):
            a, b = triangles[:, i], triangles[:, j]
            d = np.array(
                [
                    displacement.get((min(x, y), max(x, y)), _ZERO)
                    for x, y in zip(a.tolist(), b.tolist(), strict=True)
                ]
            )
            out += 4.0 * (lam[:, i] * lam[:, j])[:, None] * d
        return out


_ZERO = np.zeros(3)


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
