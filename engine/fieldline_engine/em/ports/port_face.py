"""Geometry of a port face: its plane, local frame and cross-section shape.

A port face is a planar set of boundary triangles. Its shape decides how the port mode is found:
rectangles, circles and coaxial annuli get analytic modes; anything else gets a 2D eigenmode solve.
The local frame (u, v, n) has n pointing out of the computational domain (into the feeding guide),
so a wave entering the model travels along -n. For a rectangle u runs along the broad side `a`.
"""

from dataclasses import dataclass, field

import numpy as np

from fieldline_engine.errors import InvalidInput

# Relative tolerances for "this polygon is a rectangle/circle": exact for meshed CAD faces, whose
# boundary vertices lie on the true edges, and loose enough for round-off.
_PLANAR_TOL = 1e-6
_SHAPE_TOL = 1e-4


@dataclass
class PortFace:
    label: str
    centroid: np.ndarray  # (3,) metres
    normal: np.ndarray  # (3,) unit, out of the domain
    u_axis: np.ndarray  # (3,) unit, in-plane
    v_axis: np.ndarray  # (3,) unit, n x u ... completes a right-handed (u, v, n) frame
    area: float
    shape: str  # "rectangle" | "circle" | "coax" | "other"
    dims: dict[str, float] = field(
        default_factory=dict
    )  # a, b (rectangle), radius (circle), inner/outer (coax)
    origin: np.ndarray = field(default_factory=lambda: np.zeros(3))  # corner of a rectangle, else centre

    def local(self, points: np.ndarray) -> np.ndarray:
        """(n, 3) global points → (n, 2) coordinates (u, v) relative to `origin`."""
        d = np.asarray(points, dtype=np.float64) - self.origin
        return np.stack([d @ self.u_axis, d @ self.v_axis], axis=1)

    def describe(self) -> dict[str, object]:
        return {
            "shape": self.shape,
            "dimensions_m": {k: float(v) for k, v in self.dims.items()},
            "reference_plane": {
                "point_m": [float(x) for x in self.centroid],
                "normal": [float(x) for x in self.normal],
            },
            "area_m2": float(self.area),
        }


def analyse_port_face(
    label: str, vertices: np.ndarray, triangles: np.ndarray, what: str, outward: np.ndarray | None = None
) -> PortFace:
    """`triangles` index `vertices` (metres); `outward` (else the triangles' orientation) gives the normal
    pointing out of the domain."""
    tri_pts = vertices[triangles]
    cross = np.cross(tri_pts[:, 1] - tri_pts[:, 0], tri_pts[:, 2] - tri_pts[:, 0])
    area_vec = 0.5 * cross.sum(axis=0)
    areas = 0.5 * np.linalg.norm(cross, axis=1)
    area = float(areas.sum())
    if area <= 0:
        raise InvalidInput(f"{what}: the port faces have no area.")
    normal = area_vec / np.linalg.norm(area_vec)
    if abs(float(np.linalg.norm(area_vec)) - area) > 1e-6 * area:
        # Mixed triangle orientations: fall back to the plane fit and the given outward direction.
        _, _, vt = np.linalg.svd(tri_pts.reshape(-1, 3) - tri_pts.reshape(-1, 3).mean(axis=0))
        normal = vt[2]
    if outward is not None and normal @ outward < 0:
        normal = -normal
    used = np.unique(triangles)
    pts = vertices[used]
    centroid = (areas[:, None] * tri_pts.mean(axis=1)).sum(axis=0) / area
    size = float(np.ptp(pts, axis=0).max())
    if np.max(np.abs((pts - centroid) @ normal)) > _PLANAR_TOL * size + 1e-15:
        raise InvalidInput(
            f"{what}: a wave port must be a planar face; the selected faces are not in one plane."
        )

    loops = _boundary_loops(triangles)
    face = _classify(label, vertices, loops, centroid, normal, area)
    return face


def _positive(axis: np.ndarray) -> np.ndarray:
    """Signs an in-plane axis so its largest Cartesian component is positive. Mode polarities follow
    these axes, so two ports on the same straight guide get the same polarity whatever their normals
    (a matched line then has S21 = e^{-jβL}, not its negative)."""
    i = int(np.argmax(np.abs(axis) + 1e-9 * np.arange(3)[::-1]))
    return axis if axis[i] > 0 else -axis


def _frame(normal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    trial = np.eye(3)[int(np.argmin(np.abs(normal)))]
    u = _positive((trial - (trial @ normal) * normal) / np.linalg.norm(trial - (trial @ normal) * normal))
    v = _positive(np.cross(normal, u))
    return u, v


def _classify(
    label: str,
    vertices: np.ndarray,
    loops: list[np.ndarray],
    centroid: np.ndarray,
    normal: np.ndarray,
    area: float,
) -> PortFace:
    u, v = _frame(normal)
    other = PortFace(label, centroid, normal, u, v, area, "other", {}, centroid.copy())
    if len(loops) == 1:
        rect = _as_rectangle(vertices[loops[0]], centroid, normal, area)
        if rect is not None:
            u, v, a, b, corner = rect
            return PortFace(label, centroid, normal, u, v, area, "rectangle", {"a": a, "b": b}, corner)
        circle = _as_circle(vertices[loops[0]], u, v)
        if circle is not None:
            centre, r = circle
            return PortFace(label, centre, normal, u, v, area, "circle", {"radius": r}, centre)
    if len(loops) == 2:
        circles = [_as_circle(vertices[loop], u, v) for loop in loops]
        if all(c is not None for c in circles):
            (c1, r1), (c2, r2) = sorted(circles, key=lambda c: c[1])  # type: ignore[arg-type]
            if np.linalg.norm(c1 - c2) < _SHAPE_TOL * r2 and r2 > r1 * (1 + _SHAPE_TOL):
                centre = 0.5 * (c1 + c2)
                return PortFace(label, centre, normal, u, v, area, "coax", {"inner": r1, "outer": r2}, centre)
    return other


def _as_rectangle(loop_pts: np.ndarray, centroid: np.ndarray, normal: np.ndarray, area: float):
    """A loop is a rectangle when its polygon's corners (turns) are four right angles."""
    n = len(loop_pts)
    if n < 4:
        return None
    prev = loop_pts - np.roll(loop_pts, 1, axis=0)
    nxt = np.roll(loop_pts, -1, axis=0) - loop_pts
    turn = np.linalg.norm(np.cross(prev, nxt), axis=1) / (
        np.linalg.norm(prev, axis=1) * np.linalg.norm(nxt, axis=1) + 1e-300
    )
    corners = loop_pts[turn > 1e-6]
    if len(corners) != 4:
        return None
    sides = np.roll(corners, -1, axis=0) - corners
    lengths = np.linalg.norm(sides, axis=1)
    dirs = sides / lengths[:, None]
    for i in range(4):
        if abs(dirs[i] @ dirs[(i + 1) % 4]) > _SHAPE_TOL:
            return None
    a_idx = int(np.argmax(lengths))
    a, b = float(lengths[a_idx]), float(lengths[(a_idx + 1) % 4])
    if abs(a * b - area) > _SHAPE_TOL * area:
        return None
    u = _positive(dirs[a_idx])
    v = _positive(np.cross(normal, u))
    # Origin: the corner from which the frame spans the rectangle with u in [0, a], v in [0, b].
    rel = corners - centroid
    corner = corners[int(np.argmin(rel @ u + rel @ v))]
    return u, v, a, b, corner


def _as_circle(loop_pts: np.ndarray, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Least-squares circle through the loop's vertices (exact when they lie on a circle)."""
    if len(loop_pts) < 6:
        return None
    base = loop_pts.mean(axis=0)
    pu, pv = (loop_pts - base) @ u, (loop_pts - base) @ v
    # x² + y² = 2cx·x + 2cy·y + k  (Kåsa fit)
    m = np.stack([2 * pu, 2 * pv, np.ones_like(pu)], axis=1)
    (cu, cv, k), *_ = np.linalg.lstsq(m, pu * pu + pv * pv, rcond=None)
    r = float(np.sqrt(k + cu * cu + cv * cv))
    dist = np.hypot(pu - cu, pv - cv)
    if np.max(np.abs(dist - r)) > _SHAPE_TOL * r:
        return None
    return base + cu * u + cv * v, r


def _boundary_loops(triangles: np.ndarray) -> list[np.ndarray]:
    """Closed loops of edges used by exactly one triangle, as ordered vertex lists (any orientation)."""
    edges = np.sort(
        np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), axis=1
    )
    base = int(edges.max(initial=0)) + 1
    # one integer per edge: np.unique over rows (axis=0) builds a structured dtype, slow on small inputs
    keys, counts = np.unique(edges[:, 0].astype(np.int64) * base + edges[:, 1], return_counts=True)
    single = keys[counts == 1]
    neighbours: dict[int, list[int]] = {}
    for a, b in zip((single // base).tolist(), (single % base).tolist(), strict=True):
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    loops: list[np.ndarray] = []
    seen: set[int] = set()
    for start in neighbours:
        if start in seen:
            continue
        loop, prev, cur = [start], -1, start
        seen.add(start)
        while True:
            nxt = [w for w in neighbours[cur] if w != prev]
            if not nxt or nxt[0] == start or nxt[0] in seen:
                break
            prev, cur = cur, nxt[0]
            loop.append(cur)
            seen.add(cur)
        loops.append(np.asarray(loop))
    return loops
