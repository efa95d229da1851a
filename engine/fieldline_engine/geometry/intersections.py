"""Self-intersection search for triangle surfaces: which pairs of triangles cross, touch or overlap.

Broad phase: a uniform grid over triangle bounding boxes (large triangles are tested directly).
Narrow phase, vectorised over candidate pairs, with orientation determinants and a relative tolerance:
  - pairs without a shared vertex: an edge of one crossing the other's interior, or a vertex lying in
    the other's interior (an unwelded T-junction);
  - pairs sharing one vertex: only the edges away from that vertex can cross;
  - coplanar pairs: a 2D overlap test (edges crossing properly, or a vertex strictly inside).
Pairs sharing an edge can only meet along it unless they fold onto each other (coplanar case).
"""

from dataclasses import dataclass

import numpy as np

GRID_MAX_CELLS_PER_TRIANGLE = 512
GROUP_VECTOR_LIMIT = 64
REL_TOL = 1e-10


@dataclass
class Intersections:
    pairs: np.ndarray  # (k, 2) triangle indices, i < j
    points: np.ndarray  # (k, 3) a point on each intersection (approximate)
    kinds: np.ndarray  # (k,) "crossing" | "touching" | "overlap"


def _candidate_pairs(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    m = len(lo)
    if m < 2:
        return np.zeros((0, 2), dtype=np.int64)
    ext = (hi - lo).max(axis=1)
    span = float((hi.max(axis=0) - lo.min(axis=0)).max())
    cell = max(float(np.percentile(ext, 75)), span * 1e-4, 1e-300)
    origin = lo.min(axis=0)
    ilo = np.floor((lo - origin) / cell).astype(np.int64)
    ihi = np.floor((hi - origin) / cell).astype(np.int64)
    size = ihi - ilo + 1
    ncells = size.prod(axis=1)
    big = ncells > GRID_MAX_CELLS_PER_TRIANGLE
    dims = ihi.max(axis=0) + 1

    pair_chunks: list[np.ndarray] = []
    small_idx = np.nonzero(~big)[0]
    keys_list, tri_list = [], []
    max_size = size[small_idx].max(axis=0) if len(small_idx) else np.zeros(3, dtype=np.int64)
    for dx in range(int(max_size[0])):
        for dy in range(int(max_size[1])):
            for dz in range(int(max_size[2])):
                sel = small_idx[(size[small_idx] > [dx, dy, dz]).all(axis=1)]
                c = ilo[sel] + [dx, dy, dz]
                keys_list.append((c[:, 0] * dims[1] + c[:, 1]) * dims[2] + c[:, 2])
                tri_list.append(sel)
    if keys_list:
        keys = np.concatenate(keys_list)
        tris = np.concatenate(tri_list)
        order = np.argsort(keys, kind="stable")
        keys, tris = keys[order], tris[order]
        uniq, start, count = np.unique(keys, return_index=True, return_counts=True)
        group_size = np.repeat(count, count)
        vector = group_size <= GROUP_VECTOR_LIMIT
        for d in range(1, min(int(count.max()), GROUP_VECTOR_LIMIT)):
            same = (keys[:-d] == keys[d:]) & vector[:-d]
            pair_chunks.append(np.stack([tris[:-d][same], tris[d:][same]], axis=1))
        for s, c in zip(start[count > GROUP_VECTOR_LIMIT], count[count > GROUP_VECTOR_LIMIT], strict=True):
            members = tris[s : s + c]
            i, j = np.triu_indices(c, 1)
            pair_chunks.append(np.stack([members[i], members[j]], axis=1))
    for b in np.nonzero(big)[0]:
        overlap = np.nonzero((lo <= hi[b]).all(axis=1) & (hi >= lo[b]).all(axis=1))[0]
        overlap = overlap[overlap != b]
        pair_chunks.append(np.stack([np.full(len(overlap), b), overlap], axis=1))
    if not pair_chunks:
        return np.zeros((0, 2), dtype=np.int64)
    pairs = np.concatenate(pair_chunks)
    pairs = np.sort(pairs, axis=1)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    pairs = np.unique(pairs, axis=0)
    # Exact bounding-box overlap.
    keep = (lo[pairs[:, 0]] <= hi[pairs[:, 1]]).all(axis=1) & (hi[pairs[:, 0]] >= lo[pairs[:, 1]]).all(axis=1)
    return pairs[keep]


def _orient(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)


def _seg_crosses_tri(p, q, a, b, c, tol, allow_touch: bool):
    """Segment pq against triangle abc (all (k,3)); returns (crossing, touching, points)."""
    dp, dq = _orient(a, b, c, p), _orient(a, b, c, q)
    crosses = ((dp > tol) & (dq < -tol)) | ((dp < -tol) & (dq > tol))
    s1, s2, s3 = _orient(p, q, a, b), _orient(p, q, b, c), _orient(p, q, c, a)
    inside = ((s1 > tol) & (s2 > tol) & (s3 > tol)) | ((s1 < -tol) & (s2 < -tol) & (s3 < -tol))
    hit = crosses & inside
    touching = np.zeros_like(hit)
    denom = np.where(np.abs(dp - dq) > 0, dp - dq, 1.0)
    t = np.clip(dp / denom, 0.0, 1.0)
    point = p + t[:, None] * (q - p)
    if allow_touch:
        # An endpoint lying in the triangle's interior (vertex-in-facet).
        n = np.cross(b - a, c - a)
        margin = 1e-9 * np.einsum("ij,ij->i", n, n)
        for end, d in ((p, dp), (q, dq)):
            w1 = np.einsum("ij,ij->i", np.cross(b - a, end - a), n)
            w2 = np.einsum("ij,ij->i", np.cross(c - b, end - b), n)
            w3 = np.einsum("ij,ij->i", np.cross(a - c, end - c), n)
            touch = (np.abs(d) <= tol) & (w1 > margin) & (w2 > margin) & (w3 > margin) & ~hit
            point = np.where(touch[:, None], end, point)
            touching |= touch
    return hit, touching, point


def _project_2d(points: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """Drops the coordinate along the normal's dominant axis; points (k,3,3) → (k,3,2)."""
    axis = np.argmax(np.abs(normal), axis=1)
    keep = np.array([[1, 2], [0, 2], [0, 1]])[axis]
    return np.take_along_axis(points, keep[:, None, :], axis=2)


def _orient2d(a, b, c):
    return (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])


def _coplanar_overlap(A: np.ndarray, B: np.ndarray, fa: np.ndarray, fb: np.ndarray, normal: np.ndarray):
    """2D overlap of coplanar triangles (k,3,3); vertices shared by index never count as overlap."""
    a2, b2 = _project_2d(A, normal), _project_2d(B, normal)
    scale = np.maximum(np.abs(a2).max(axis=(1, 2)), np.abs(b2).max(axis=(1, 2)))
    span = np.maximum(np.ptp(np.concatenate([a2, b2], axis=1), axis=1).max(axis=1), 1e-300)
    tol = REL_TOL * span**2 + 1e-15 * scale**2
    hit = np.zeros(len(A), dtype=bool)
    for i in range(3):
        p, q = a2[:, i], a2[:, (i + 1) % 3]
        for j in range(3):
            r, s = b2[:, j], b2[:, (j + 1) % 3]
            o1, o2 = _orient2d(p, q, r), _orient2d(p, q, s)
            o3, o4 = _orient2d(r, s, p), _orient2d(r, s, q)
            cross = (((o1 > tol) & (o2 < -tol)) | ((o1 < -tol) & (o2 > tol))) & (
                ((o3 > tol) & (o4 < -tol)) | ((o3 < -tol) & (o4 > tol))
            )
            hit |= cross
    for tri, other, ftri, fother in ((a2, b2, fa, fb), (b2, a2, fb, fa)):
        sign = np.sign(_orient2d(other[:, 0], other[:, 1], other[:, 2]))
        for i in range(3):
            p = tri[:, i]
            shared = (ftri[:, i, None] == fother).any(axis=1)
            w = [sign * _orient2d(other[:, k], other[:, (k + 1) % 3], p) for k in range(3)]
            inside = (w[0] > tol) & (w[1] > tol) & (w[2] > tol)
            hit |= inside & ~shared
    return hit


NARROW_CHUNK = 400_000  # candidate pairs tested at once (bounds memory on large surfaces)


def find_intersections(vertices: np.ndarray, faces: np.ndarray) -> Intersections:
    """All pairs of triangles that cross, touch (vertex in face) or overlap (coplanar)."""
    empty = Intersections(np.zeros((0, 2), np.int64), np.zeros((0, 3)), np.zeros(0, dtype=object))
    if len(faces) < 2:
        return empty
    tri = vertices[faces]
    lo, hi = tri.min(axis=1), tri.max(axis=1)
    pad = (hi - lo).max(axis=1, keepdims=True) * 1e-9
    candidates = _candidate_pairs(lo - pad, hi + pad)
    found = [
        _narrow(faces, tri, candidates[s : s + NARROW_CHUNK]) for s in range(0, len(candidates), NARROW_CHUNK)
    ]
    if not found:
        return empty
    return Intersections(
        np.concatenate([x.pairs for x in found]),
        np.concatenate([x.points for x in found]),
        np.concatenate([x.kinds for x in found]),
    )


def _narrow(faces: np.ndarray, tri: np.ndarray, pairs: np.ndarray) -> Intersections:
    fa, fb = faces[pairs[:, 0]], faces[pairs[:, 1]]
    shared = (fa[:, :, None] == fb[:, None, :]).any(axis=2)  # (k,3): vertex i of A also in B
    n_shared = shared.sum(axis=1)
    A, B = tri[pairs[:, 0]], tri[pairs[:, 1]]
    edge_len = np.concatenate(
        [
            np.linalg.norm(np.roll(A, -1, axis=1) - A, axis=2),
            np.linalg.norm(np.roll(B, -1, axis=1) - B, axis=2),
        ],
        axis=1,
    ).max(axis=1)
    tol = REL_TOL * edge_len**3

    nA = np.cross(A[:, 1] - A[:, 0], A[:, 2] - A[:, 0])
    dB = np.stack([_orient(A[:, 0], A[:, 1], A[:, 2], B[:, k]) for k in range(3)], axis=1)
    coplanar = (np.abs(dB) <= tol[:, None]).all(axis=1)

    hit = np.zeros(len(pairs), dtype=bool)
    kinds = np.full(len(pairs), "crossing", dtype=object)
    points = (A.mean(axis=1) + B.mean(axis=1)) / 2

    # Coplanar pairs sharing fewer than three vertices: 2D overlap.
    cp = np.nonzero(coplanar & (n_shared < 3))[0]
    if len(cp):
        over = _coplanar_overlap(A[cp], B[cp], fa[cp], fb[cp], nA[cp])
        hit[cp[over]] = True
        kinds[cp[over]] = "overlap"

    # Non-coplanar, nothing shared: six segment–triangle tests, touching counts.
    for sel_mask, allow_touch in ((~coplanar & (n_shared == 0), True), (~coplanar & (n_shared == 1), False)):
        idx = np.nonzero(sel_mask)[0]
        if not len(idx):
            continue
        a, b = A[idx], B[idx]
        t = tol[idx]
        local_hit = np.zeros(len(idx), dtype=bool)
        local_touch = np.zeros(len(idx), dtype=bool)
        local_pt = points[idx].copy()
        for tri_s, tri_o, shared_s in ((a, b, shared[idx]), (b, a, None)):
            if shared_s is None:
                # Which vertices of B are shared: compare B's vertices against A's.
                fbi, fai = fb[idx], fa[idx]
                shared_s = (fbi[:, :, None] == fai[:, None, :]).any(axis=2)
            for e in range(3):
                p, q = tri_s[:, e], tri_s[:, (e + 1) % 3]
                # With one shared vertex, edges touching it cannot cross the other triangle.
                usable = ~(shared_s[:, e] | shared_s[:, (e + 1) % 3])
                h, touch, pt = _seg_crosses_tri(p, q, tri_o[:, 0], tri_o[:, 1], tri_o[:, 2], t, allow_touch)
                h &= usable
                touch &= usable & ~h
                local_pt = np.where(((h | touch) & ~local_hit & ~local_touch)[:, None], pt, local_pt)
                local_hit |= h
                local_touch |= touch
        found = local_hit | local_touch
        hit[idx[found]] = True
        points[idx[found]] = local_pt[found]
        kinds[idx[local_touch & ~local_hit]] = "touching"
    return Intersections(pairs[hit], points[hit], kinds[hit])
