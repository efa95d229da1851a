"""Small structured models for magnetics tests."""

from typing import Any

import numpy as np

from fieldline_engine.testing.meshes import box_mesh


def bar_in_air(inner: bool = False) -> dict[str, Any]:
    """A 3 × 3 × 3 block of 1 mm cubes: the middle column along z is the bar (body 'bar'), the rest air;
    `inner` keeps the bar off the top and bottom faces (a conductor that does not reach the boundary)."""
    mesh = box_mesh((3e-3, 3e-3, 3e-3), (3, 3, 3))
    v = np.asarray(mesh["vertices"])
    c = v[np.asarray(mesh["tetrahedra"])].mean(axis=1)
    bar = (np.abs(c[:, 0] - 1.5e-3) < 0.5e-3) & (np.abs(c[:, 1] - 1.5e-3) < 0.5e-3)
    if inner:
        bar &= np.abs(c[:, 2] - 1.5e-3) < 0.5e-3
    mesh["tetrahedron_regions"] = np.where(bar, 1, 0).tolist()
    mesh["region_names"] = ["air", "bar"]
    return mesh
