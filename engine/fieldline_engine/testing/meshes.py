"""Small structured tetrahedral meshes for tests: a box split into cubes, six tetrahedra per cube."""

from typing import Any

import numpy as np

# Kuhn triangulation of the unit cube along the main diagonal 0→7 (vertex bits: x=1, y=2, z=4).
_KUHN = np.array([[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]])


def box_mesh(
    size: tuple[float, float, float],
    cells: tuple[int, int, int],
    origin: tuple[float, float, float] = (0, 0, 0),
) -> dict[str, Any]:
    """mesh_data for a box: vertices, tetrahedra and the boundary faces (face id = row + 1)."""
    nx, ny, nz = cells
    xs, ys, zs = (np.linspace(o, o + s, n + 1) for o, s, n in zip(origin, size, cells, strict=True))
    X, Y, Z = np.meshgrid(xs, ys, zs, indexing="ij")
    vertices = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=1)

    def vid(i: np.ndarray, j: np.ndarray, k: np.ndarray) -> np.ndarray:
        return (i * (ny + 1) + j) * (nz + 1) + k

    I, J, K = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
    I, J, K = I.ravel(), J.ravel(), K.ravel()
    corners = np.stack([vid(I + (b & 1), J + ((b >> 1) & 1), K + ((b >> 2) & 1)) for b in range(8)], axis=1)
    tets = corners[:, _KUHN].reshape(-1, 4)
    return {"vertices": vertices.tolist(), "tetrahedra": tets.tolist(), "faces": _boundary(tets).tolist()}


def _boundary(tets: np.ndarray) -> np.ndarray:
    tris = tets[:, [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]]].reshape(-1, 3)
    s = np.sort(tris, axis=1)
    _, idx, counts = np.unique(s, axis=0, return_index=True, return_counts=True)
    return tris[np.sort(idx[counts == 1])]


def faces_on_plane(mesh_data: dict[str, Any], axis: int, value: float, tol: float = 1e-12) -> list[int]:
    """1-based ids of the boundary faces lying in the plane x[axis] = value."""
    v = np.asarray(mesh_data["vertices"])
    f = np.asarray(mesh_data["faces"])
    on = np.all(np.abs(v[f][:, :, axis] - value) <= tol, axis=1)
    return (np.nonzero(on)[0] + 1).tolist()


def nodes_on_plane(mesh_data: dict[str, Any], axis: int, value: float, tol: float = 1e-12) -> list[int]:
    v = np.asarray(mesh_data["vertices"])
    return np.nonzero(np.abs(v[:, axis] - value) <= tol)[0].tolist()
