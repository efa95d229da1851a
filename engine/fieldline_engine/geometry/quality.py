"""Mesh quality report: the same measures for every mesher, computed from the tetrahedra themselves.

- radius ratio ρ = 3·r_in / R_circ (1 for the regular tetrahedron, → 0 for flat ones): "quality";
- dihedral angles (slivers have angles near 0° or 180°);
- radius-edge ratio R_circ / l_min (TetGen's measure; 0.612 for the regular tetrahedron).
"""

from typing import Any

import numpy as np

RADIUS_EDGE_BINS = [0.612, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, np.inf]
QUALITY_BINS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0000001]
SLIVER_DIHEDRAL_DEG = 5.0
WORST_LISTED = 10
CHUNK = 500_000
# Each of the 6 edges (i, j) of a tetrahedron lies between the faces opposite the other two corners.
_EDGES = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]


def _measures(p: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    a, b, c = p[:, 1] - p[:, 0], p[:, 2] - p[:, 0], p[:, 3] - p[:, 0]
    det = np.einsum("ij,ij->i", a, np.cross(b, c))
    vol = det / 6.0
    num = (
        np.einsum("ij,ij->i", a, a)[:, None] * np.cross(b, c)
        + np.einsum("ij,ij->i", b, b)[:, None] * np.cross(c, a)
        + np.einsum("ij,ij->i", c, c)[:, None] * np.cross(a, b)
    )
    safe_det = np.where(det != 0, det, np.inf)
    circum = np.linalg.norm(num, axis=1) / (2 * np.abs(safe_det))
    # Outward face normals, face k opposite corner k.
    faces = [(1, 2, 3), (0, 3, 2), (0, 1, 3), (0, 2, 1)]
    normals = [np.cross(p[:, j] - p[:, i], p[:, k] - p[:, i]) for i, j, k in faces]
    areas = np.stack([0.5 * np.linalg.norm(n, axis=1) for n in normals], axis=1)
    inradius = 3 * np.abs(vol) / np.maximum(areas.sum(axis=1), 1e-300)
    unit = [n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300) for n in normals]
    dihedral = []
    for i, j in _EDGES:
        k, l = (x for x in range(4) if x not in (i, j))
        cos = np.clip(-np.einsum("ij,ij->i", unit[k], unit[l]), -1.0, 1.0)
        dihedral.append(np.degrees(np.arccos(cos)))
    dih = np.stack(dihedral, axis=1)
    edges = np.stack([np.linalg.norm(p[:, j] - p[:, i], axis=1) for i, j in _EDGES], axis=1)
    return vol, 3 * inradius * np.where(np.isfinite(circum), 1 / circum, 0), dih, circum, edges.min(axis=1)


def min_dihedral_angles(vertices: np.ndarray, tets: np.ndarray) -> np.ndarray:
    """Each tetrahedron's smallest dihedral angle (degrees)."""
    out = np.empty(len(tets))
    for s in range(0, len(tets), CHUNK):
        out[s : s + CHUNK] = _measures(vertices[tets[s : s + CHUNK]])[2].min(axis=1)
    return out


def quality_report(vertices: np.ndarray, tets: np.ndarray) -> dict[str, Any]:
    n = len(tets)
    vol = np.empty(n)
    rho = np.empty(n)
    dmin = np.empty(n)
    dmax = np.empty(n)
    rer = np.empty(n)
    for s in range(0, n, CHUNK):
        p = vertices[tets[s : s + CHUNK]]
        v, q, dih, circum, lmin = _measures(p)
        vol[s : s + CHUNK] = v
        rho[s : s + CHUNK] = q
        dmin[s : s + CHUNK] = dih.min(axis=1)
        dmax[s : s + CHUNK] = dih.max(axis=1)
        rer[s : s + CHUNK] = circum / np.maximum(lmin, 1e-300)
    worst = np.argsort(dmin)[:WORST_LISTED]
    rer_hist, _ = np.histogram(rer, bins=RADIUS_EDGE_BINS)
    q_hist, _ = np.histogram(rho, bins=QUALITY_BINS)
    return {
        "element_count": int(n),
        "vertex_count": int(len(vertices)),
        "volume": float(vol.sum()),
        "min_volume": float(vol.min()) if n else 0.0,
        "quality_measure": "radius ratio 3·r_in/R_circ (1 = regular tetrahedron)",
        "min_quality": float(rho.min()) if n else 0.0,
        "avg_quality": float(rho.mean()) if n else 0.0,
        "quality_histogram": {"bins": QUALITY_BINS[:-1] + [1.0], "counts": q_hist.tolist()},
        "min_dihedral_deg": float(dmin.min()) if n else 0.0,
        "max_dihedral_deg": float(dmax.max()) if n else 0.0,
        "slivers": int((dmin < SLIVER_DIHEDRAL_DEG).sum()),
        "worst_elements": [
            {
                "tetrahedron": int(i),
                "min_dihedral_deg": float(dmin[i]),
                "max_dihedral_deg": float(dmax[i]),
                "quality": float(rho[i]),
            }
            for i in worst
        ],
        "radius_edge_histogram": {
            "bins": [b if np.isfinite(b) else None for b in RADIUS_EDGE_BINS],
            "counts": rer_hist.tolist(),
        },
        "max_radius_edge_ratio": float(rer.max()) if n else 0.0,
    }
