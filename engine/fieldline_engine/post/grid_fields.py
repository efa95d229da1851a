"""Fields sampled on a regular grid over the model's bounding box enlarged by a padding factor.

`gridResolution` (or gridResolutionX/Y/Z) gives the number of points per axis (1–256); one point on an
axis sits at the box centre. Points are ordered x-major: index = (ix·ny + iy)·nz + iz. Points outside
the mesh have inside = 0 and field values 0. Small grids are written into results.json; grids above
INLINE_MAX_POINTS go to a binary side file (float32, little-endian) that results.json describes.
"""

from typing import Any

import ngsolve as ng
import numpy as np

from fieldline_engine.errors import InvalidInput
from fieldline_engine.post.compact import round_significant

INLINE_MAX_POINTS = 64**3
_CHUNK = 200_000


def grid_resolution(config: dict[str, Any]) -> tuple[int, int, int]:
    given = config.get("gridResolution")
    if given is not None:
        res = [int(v) for v in given]
    else:
        res = [int(config.get(k, 10)) for k in ("gridResolutionX", "gridResolutionY", "gridResolutionZ")]
    if len(res) != 3 or any(n < 1 or n > 256 for n in res):
        raise InvalidInput("Grid resolution must give 1 to 256 points on each axis.")
    return res[0], res[1], res[2]


def grid_points(
    vertices: np.ndarray, resolution: tuple[int, int, int], padding: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    pad = padding * (hi - lo)
    lo, hi = lo - pad, hi + pad
    axes = [
        np.linspace(lo[i], hi[i], n) if n > 1 else np.array([(lo[i] + hi[i]) / 2])
        for i, n in enumerate(resolution)
    ]
    X, Y, Z = np.meshgrid(*axes, indexing="ij")
    return lo, hi, np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1), axes


def sample(
    mesh: ng.Mesh, points: np.ndarray, fields: dict[str, ng.CoefficientFunction]
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Values of each field at the points (0 outside the mesh) and the inside mask."""
    inside = np.zeros(len(points), dtype=bool)
    out = {
        name: np.zeros((len(points), cf.dim), dtype=complex if cf.is_complex else float)
        for name, cf in fields.items()
    }
    for start in range(0, len(points), _CHUNK):
        chunk = points[start : start + _CHUNK]
        mips = mesh(chunk[:, 0], chunk[:, 1], chunk[:, 2])
        ok = mips["nr"] >= 0  # evaluating at a point outside the mesh would crash NGSolve
        idx = np.nonzero(ok)[0]
        inside[start + idx] = True
        if idx.size == 0:
            continue
        for name, cf in fields.items():
            values = np.asarray(cf(mips[ok]))
            out[name][start + idx] = values.reshape(idx.size, cf.dim)
    return inside, out


def grid_section(
    mesh: ng.Mesh,
    vertices_m: np.ndarray,
    unit_scale: float,
    config: dict[str, Any],
    fields: dict[str, ng.CoefficientFunction],
    within_sphere: tuple[np.ndarray, float] | None = None,
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The results' `grid` entry (in model length units) and any binary side files it refers to.
    `within_sphere` (centre, radius in m): points beyond it count as outside (a PML's absorbing layer
    holds no physical field)."""
    resolution = grid_resolution(config)
    padding = float(config.get("gridPaddingFactor", 0.1))
    if not 0.0 <= padding <= 1.0:
        raise InvalidInput("Grid padding must be between 0 and 1.")
    lo, hi, points, axes = grid_points(vertices_m, resolution, padding)
    inside, values = sample(mesh, points, fields)
    if within_sphere is not None:
        centre, radius = within_sphere
        beyond = np.linalg.norm(points - np.asarray(centre, dtype=float), axis=1) > radius
        inside &= ~beyond
        for v in values.values():
            v[beyond] = 0
    arrays: dict[str, np.ndarray] = {"inside": inside.astype(np.float64)}
    for name, v in values.items():
        if np.iscomplexobj(v):
            arrays[f"{name}_magnitude"] = np.linalg.norm(v, axis=1) if v.shape[1] > 1 else np.abs(v[:, 0])
            arrays[f"{name}_real"] = v.real
            arrays[f"{name}_imag"] = v.imag
        else:
            if v.shape[1] > 1:
                arrays[f"{name}_magnitude"] = np.linalg.norm(v, axis=1)
            arrays[name] = v if v.shape[1] > 1 else v[:, 0]
    section: dict[str, Any] = {
        "resolution": list(resolution),
        "padding_factor": padding,
        "bounds": {"min": (lo / unit_scale).tolist(), "max": (hi / unit_scale).tolist()},
        "axes": [(a / unit_scale).tolist() for a in axes],
        "layout": "x-major: index = (ix*ny + iy)*nz + iz",
        "points": int(len(points)),
        "inside_count": int(inside.sum()),
    }
    files: dict[str, bytes] = {}
    if len(points) <= INLINE_MAX_POINTS:
        section["fields"] = {name: round_significant(a) for name, a in arrays.items()}
    else:
        blob, layout, offset = [], {}, 0
        for name, a in arrays.items():
            data = np.ascontiguousarray(a, dtype="<f4").tobytes()
            layout[name] = {"offset": offset, "shape": list(a.shape), "dtype": "float32-le"}
            blob.append(data)
            offset += len(data)
        files["grid_fields.bin"] = b"".join(blob)
        section["file"] = "grid_fields.bin"
        section["arrays"] = layout
    return section, files
