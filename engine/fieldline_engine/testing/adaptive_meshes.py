"""Coarse start meshes for the adaptive-refinement tests and bench: the L-shaped (re-entrant corner)
prism, from the structured box of testing/meshes.py with one quadrant taken out."""

from typing import Any

import numpy as np

from fieldline_engine.testing.meshes import _boundary, box_mesh


def l_shape_mesh(cells: int = 2, thickness: float = 0.5, layers: int = 1) -> dict[str, Any]:
    """[-1, 1]² without the quadrant x > 0, y < 0, extruded over z ∈ [0, thickness]: the re-entrant
    corner (interior angle 270°) runs along the z axis. `cells` per unit length in x and y."""
    box = box_mesh((2.0, 2.0, thickness), (2 * cells, 2 * cells, layers), origin=(-1.0, -1.0, 0.0))
    v = np.asarray(box["vertices"])
    tets = np.asarray(box["tetrahedra"])
    centre = v[tets].mean(axis=1)
    keep = ~((centre[:, 0] > 0) & (centre[:, 1] < 0))
    tets = tets[keep]
    used, local = np.unique(tets, return_inverse=True)
    tets = local.reshape(-1, 4)
    return {"vertices": v[used].tolist(), "tetrahedra": tets.tolist(), "faces": _boundary(tets).tolist()}


def corner_angle(points: np.ndarray) -> np.ndarray:
    """θ ∈ [0, 3π/2] measured from the +x half-plane face (y = 0, x > 0) through the material."""
    theta = np.arctan2(points[:, 1], points[:, 0])
    return np.where(theta < 0, theta + 2 * np.pi, theta)


def netgen_mesh_data(mesh, units: str) -> dict[str, Any]:
    """mesh_data (vertices, tetrahedra, boundary faces, bodies) of a netgen mesh, as an upload would carry it."""
    ngmesh = mesh.ngmesh
    vertices = np.array(ngmesh.Coordinates(), dtype=float)
    e3 = ngmesh.Elements3D().NumPy()
    tets = np.asarray(e3["nodes"][:, :4], dtype=np.int64) - 1
    regions = np.asarray(e3["index"], dtype=np.int64) - 1
    return {
        "vertices": vertices.tolist(),
        "tetrahedra": tets.tolist(),
        "tetrahedron_regions": regions.tolist(),
        "faces": _boundary(tets).tolist(),
        "units": units,
    }


def wr90_post_mesh_data(
    maxh_mm: float, post_radius_mm: float = 2.0, length_mm: float = 40.0, curvature_safety: float = 2.0
) -> dict[str, Any]:
    """WR-90 (22.86 × 10.16 mm) along z with a metal post (removed from the air) across its height at the
    centre: an inductive post, as uploaded tetrahedra in mm. Ports are the faces at z = 0 and z = length."""
    import ngsolve as ng
    from netgen.occ import Box, Cylinder, OCCGeometry, Pnt, Y

    a, b = 22.86, 10.16
    guide = Box(Pnt(0, 0, 0), Pnt(a, b, length_mm)) - Cylinder(
        Pnt(a / 2, -1, length_mm / 2), Y, r=post_radius_mm, h=b + 2
    )
    return netgen_mesh_data(
        ng.Mesh(OCCGeometry(guide).GenerateMesh(maxh=maxh_mm, curvaturesafety=curvature_safety)), "mm"
    )
