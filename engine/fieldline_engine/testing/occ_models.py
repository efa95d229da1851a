"""Helpers for validation cases meshed with netgen.occ: curved meshes, boundary groups, materials.

Name faces `dirichlet_0`, `dirichlet_1`, … and bodies `body0`, `body1`, … before meshing; the physics
functions then take the NGSolve mesh directly (the CAD geometry stays attached, so `mesh.Curve` is
exact).
"""

from typing import Any

import ngsolve as ng
import numpy as np
from netgen.occ import OCCGeometry

from fieldline_engine.em.boundary_conditions import DirichletGroup, ResolvedBoundaries
from fieldline_engine.em.constants import EPS0, MU0
from fieldline_engine.em.materials import BodyMaterial


def curved_mesh(shape: Any, maxh: float, order: int, **mesh_options: Any) -> ng.Mesh:
    mesh = ng.Mesh(OCCGeometry(shape).GenerateMesh(maxh=maxh, **mesh_options))
    if order > 1:
        mesh.Curve(order)
    return mesh


def dirichlet(
    *groups: tuple[float, str] | tuple[float, str, Any], neumann: list | None = None
) -> ResolvedBoundaries:
    """Group k (label dirichlet_k) gets (voltage, name[, potential profile CF])."""
    out = ResolvedBoundaries(face_labels=np.array([], dtype=object))
    for k, g in enumerate(groups):
        out.dirichlet.append(
            DirichletGroup(f"dirichlet_{k}", float(g[0]), g[1], g[2] if len(g) > 2 else None)
        )
    out.neumann = list(neumann or [])
    return out


def material(eps_r: float = 1.0, sigma: float = 0.0, mu_r: float = 1.0, tan_d: float = 0.0) -> BodyMaterial:
    return BodyMaterial((eps_r * EPS0,) * 3, (mu_r * MU0,) * 3, (sigma,) * 3, tan_d)


def field_at(mesh: ng.Mesh, cf: ng.CoefficientFunction, points: np.ndarray) -> np.ndarray:
    mips = mesh(points[:, 0], points[:, 1], points[:, 2])
    assert np.all(mips["nr"] >= 0), "a sample point lies outside the mesh"
    return np.asarray(cf(mips)).reshape(len(points), cf.dim)
