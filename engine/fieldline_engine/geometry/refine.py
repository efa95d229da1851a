"""Splits surface triangles until no edge is longer than the target size, without changing the shape.

Mesh input (STL/OBJ) often has long triangles (a box side as two triangles). A tetrahedral mesher
that keeps the surface cannot make good elements against them, so edges longer than the local target
size are split at their midpoints: new vertices lie on the original planar triangles, every
triangle keeps its orientation and attributes, and shared edges are split once (the surface stays
conforming and watertight).
"""

import numpy as np

MAX_ROUNDS = 24


def refine_to_size(
    vertices: np.ndarray, faces: np.ndarray, target: np.ndarray, attrs: dict[str, np.ndarray]
) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """`target` is the wanted maximum edge length per triangle; `attrs` are per-triangle arrays that
    children inherit. Returns new vertices, faces and attributes."""
    v, f = vertices.copy(), faces.copy()
    t = target.astype(np.float64).copy()
    attrs = {k: a.copy() for k, a in attrs.items()}
    for _ in range(MAX_ROUNDS):
        tail = f.reshape(-1)
        head = np.roll(f, -1, axis=1).reshape(-1)
        lo, hi = np.minimum(tail, head), np.maximum(tail, head)
        keys = lo * len(v) + hi
        uniq, edge = np.unique(keys, return_inverse=True)
        edge = edge.reshape(-1, 3)
        ev = np.stack([uniq // len(v), uniq % len(v)], axis=1)
        length = np.linalg.norm(v[ev[:, 0]] - v[ev[:, 1]], axis=1)
        # An edge's limit is the smaller target of the triangles using it.
        limit = np.full(len(uniq), np.inf)
        np.minimum.at(limit, edge.reshape(-1), np.repeat(t, 3))
        split = length > limit * 1.0000001
        if not split.any():
            break
        mid_id = np.full(len(uniq), -1, dtype=np.int64)
        mid_id[split] = len(v) + np.arange(int(split.sum()))
        v = np.vstack([v, (v[ev[split, 0]] + v[ev[split, 1]]) / 2])
        f, parent = _split_faces(f, mid_id[edge], v)
        t = t[parent]
        attrs = {k: a[parent] for k, a in attrs.items()}
    return v, f, attrs


def _split_faces(f: np.ndarray, mids: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Subdivides each triangle by its marked sides (side k runs corner k → k+1)."""
    marked = mids >= 0
    count = marked.sum(axis=1)
    out: list[np.ndarray] = []
    parent: list[np.ndarray] = []
    keep = np.nonzero(count == 0)[0]
    out.append(f[keep])
    parent.append(keep)
    # Rotate each triangle so its first marked side (or, for two marks, the unmarked one) is side 0.
    for n_marked in (1, 2, 3):
        rows = np.nonzero(count == n_marked)[0]
        if not len(rows):
            continue
        m = marked[rows]
        if n_marked == 1:
            shift = np.argmax(m, axis=1)
        elif n_marked == 2:
            shift = (np.argmin(m, axis=1) + 1) % 3  # unmarked side becomes side 2
        else:
            shift = np.zeros(len(rows), dtype=np.int64)
        idx = (shift[:, None] + np.arange(3)) % 3
        c = np.take_along_axis(f[rows], idx, axis=1)
        mm = np.take_along_axis(mids[rows], idx, axis=1)
        a, b, cc = c[:, 0], c[:, 1], c[:, 2]
        m0, m1, m2 = mm[:, 0], mm[:, 1], mm[:, 2]
        if n_marked == 1:
            tris = [np.stack([a, m0, cc], 1), np.stack([m0, b, cc], 1)]
        elif n_marked == 3:
            tris = [
                np.stack([a, m0, m2], 1),
                np.stack([m0, b, m1], 1),
                np.stack([m2, m1, cc], 1),
                np.stack([m0, m1, m2], 1),
            ]
        else:
            # Sides 0 (a→b) and 1 (b→c) are split: corner triangle at b, then the quad a, m0, m1, c
            # cut along its shorter diagonal.
            short = np.linalg.norm(v[a] - v[m1], axis=1) <= np.linalg.norm(v[m0] - v[cc], axis=1)
            q1 = np.where(short[:, None], np.stack([a, m0, m1], 1), np.stack([a, m0, cc], 1))
            q2 = np.where(short[:, None], np.stack([a, m1, cc], 1), np.stack([m0, m1, cc], 1))
            tris = [np.stack([m0, b, m1], 1), q1, q2]
        for tri in tris:
            out.append(tri)
            parent.append(rows)
    return np.vstack(out), np.concatenate(parent)
