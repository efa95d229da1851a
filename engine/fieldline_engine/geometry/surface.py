"""Triangle-surface topology: welding, edge tables, connected parts, sharp-edge patches, winding numbers.

Everything is vectorised with numpy/scipy so checks stay fast on surfaces with millions of triangles.
"""

from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree


def bbox_diagonal(vertices: np.ndarray) -> float:
    if len(vertices) == 0:
        return 0.0
    return float(np.linalg.norm(vertices.max(axis=0) - vertices.min(axis=0)))


def weld_exact(vertices: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merges vertices with identical coordinates (STL stores each corner separately)."""
    unique, inverse = np.unique(vertices, axis=0, return_inverse=True)
    return unique, inverse.reshape(-1)[faces]


def weld_within(
    vertices: np.ndarray, faces: np.ndarray, tol: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Merges vertices closer than `tol` (cracks left by float round-off). Returns the new vertices and
    faces, the old index kept for each new vertex, and the number merged."""
    if tol <= 0 or len(vertices) < 2:
        return vertices, faces, np.arange(len(vertices)), 0
    pairs = cKDTree(vertices).query_pairs(tol, output_type="ndarray")
    if len(pairs) == 0:
        return vertices, faces, np.arange(len(vertices)), 0
    n = len(vertices)
    graph = coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    ncomp, label = connected_components(graph, directed=False)
    # Representative = the first vertex of each cluster, keeping the original coordinates.
    first = np.full(ncomp, n, dtype=np.int64)
    np.minimum.at(first, label, np.arange(n))
    order = np.argsort(first)
    remap = np.empty(ncomp, dtype=np.int64)
    remap[order] = np.arange(ncomp)
    kept = first[order]
    return vertices[kept], remap[label][faces], kept, n - ncomp


@dataclass
class EdgeTable:
    """Every triangle side once per triangle: directed (tail → head), its face, its undirected edge id."""

    tail: np.ndarray
    head: np.ndarray
    face: np.ndarray
    edge: np.ndarray  # undirected edge id per side
    edge_vertices: np.ndarray  # (ne, 2) sorted vertex pair per undirected edge
    edge_count: np.ndarray  # (ne,) number of sides on each undirected edge


def edge_table(faces: np.ndarray, group: np.ndarray | None = None) -> EdgeTable:
    """Edges of `faces`; with `group` (e.g. body id per face), edges of different groups stay apart."""
    tail = faces.reshape(-1)
    head = np.roll(faces, -1, axis=1).reshape(-1)
    face = np.repeat(np.arange(len(faces)), 3)
    lo, hi = np.minimum(tail, head), np.maximum(tail, head)
    keys = np.stack([lo, hi] if group is None else [np.repeat(group, 3), lo, hi], axis=1)
    uniq, edge, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    edge = edge.reshape(-1)
    return EdgeTable(tail, head, face, edge, uniq[:, -2:], counts)


def face_normals(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    a, b, c = (vertices[faces[:, i]] for i in range(3))
    return np.cross(b - a, c - a)


def face_areas(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    return 0.5 * np.linalg.norm(face_normals(vertices, faces), axis=1)


def manifold_pairs(table: EdgeTable) -> tuple[np.ndarray, np.ndarray]:
    """For each edge with exactly two sides: the indices of those two sides (into the table arrays)."""
    order = np.argsort(table.edge, kind="stable")
    sorted_edges = table.edge[order]
    starts = np.searchsorted(sorted_edges, np.arange(len(table.edge_count)))
    two = np.nonzero(table.edge_count == 2)[0]
    return order[starts[two]], order[starts[two] + 1]


def face_components(n_faces: int, table: EdgeTable) -> tuple[int, np.ndarray]:
    """Parts connected through manifold edges."""
    s1, s2 = manifold_pairs(table)
    f1, f2 = table.face[s1], table.face[s2]
    graph = coo_matrix((np.ones(len(f1)), (f1, f2)), shape=(n_faces, n_faces))
    return connected_components(graph, directed=False)


def sharp_edge_patches(
    vertices: np.ndarray, faces: np.ndarray, group: np.ndarray | None = None, angle_deg: float = 30.0
) -> np.ndarray:
    """0-based patch id per triangle: regions bounded by edges sharper than `angle_deg` (or by
    non-manifold/boundary edges, or group changes). These stand in for CAD faces on mesh input."""
    table = edge_table(faces, group)
    s1, s2 = manifold_pairs(table)
    f1, f2 = table.face[s1], table.face[s2]
    n = face_normals(vertices, faces)
    norm = np.linalg.norm(n, axis=1)
    unit = np.divide(n, norm[:, None], out=np.zeros_like(n), where=norm[:, None] > 0)
    cos = np.einsum("ij,ij->i", unit[f1], unit[f2])
    # Sides of one edge traverse it in opposite directions when orientation agrees.
    same_dir = table.tail[s1] == table.tail[s2]
    cos = np.where(same_dir, -cos, cos)
    smooth = cos >= np.cos(np.radians(angle_deg))
    graph = coo_matrix((np.ones(int(smooth.sum())), (f1[smooth], f2[smooth])), shape=(len(faces), len(faces)))
    _, labels = connected_components(graph, directed=False)
    # Number patches in order of first appearance so ids are stable for the same input.
    _, first = np.unique(labels, return_index=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(np.argsort(first))] = np.arange(len(first))
    return rank[labels]


def signed_volume(vertices: np.ndarray, faces: np.ndarray) -> float:
    a, b, c = (vertices[faces[:, i]] for i in range(3))
    return float(np.einsum("ij,ij->", a, np.cross(b, c)) / 6.0)


def winding_numbers(vertices: np.ndarray, faces: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Generalised winding number of each point with respect to a closed oriented surface: 1 inside,
    0 outside (Van Oosterom–Strackee solid angles; robust to small defects)."""
    out = np.empty(len(points))
    a0, b0, c0 = (vertices[faces[:, i]] for i in range(3))
    for k, p in enumerate(points):
        a, b, c = a0 - p, b0 - p, c0 - p
        la, lb, lc = (np.linalg.norm(x, axis=1) for x in (a, b, c))
        det = np.einsum("ij,ij->i", a, np.cross(b, c))
        den = (
            la * lb * lc
            + np.einsum("ij,ij->i", a, b) * lc
            + np.einsum("ij,ij->i", b, c) * la
            + np.einsum("ij,ij->i", c, a) * lb
        )
        out[k] = np.arctan2(det, den).sum() * 2.0 / (4.0 * np.pi)
    return out
