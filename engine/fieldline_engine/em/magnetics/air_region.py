"""Air meshed around a bare model: users upload the device (core, coil, magnet), not the air its field
fills. A sphere about the model's bounding-box centre, of radius R·(1 + airPadding) with R the model's
bounding radius, is meshed against the model's outside triangles, kept exactly as they are (as the
full-wave air shell does, em/fullwave/air_shell.py), so the model's vertices, tetrahedra and face ids are
unchanged and the merged model appends the air (vertices, tetrahedra, one body, the sphere's faces).
Element sizes grade from the model's surface out to R·(1 + airPadding)/6 at the sphere; the sphere is
flux-tangent (B·n = 0), whose effect on an inductance falls as (1 + airPadding)⁻³ for a dipole field.
"""

from dataclasses import dataclass
from typing import Any

import numpy as np

from fieldline_engine.em.fullwave.air_shell import (
    _check_conforming,
    _orient_outward,
    _positive,
    _sphere_triangles,
)
from fieldline_engine.errors import EngineError
from fieldline_engine.mesh.tet_model import TetModel

AIR_REGION_NAME = "air (added)"
SPHERE_ELEMENTS_PER_RADIUS = 6.0


@dataclass
class AirRegion:
    model: TetModel
    labels: np.ndarray
    radius: float
    centre: np.ndarray
    added_vertices: int
    added_tetrahedra: int

    def describe(self) -> dict[str, Any]:
        return {
            "added": True,
            "centre_m": [float(x) for x in self.centre],
            "radius_m": self.radius,
            "added_vertices": self.added_vertices,
            "added_tetrahedra": self.added_tetrahedra,
            "fields_returned": "model vertices only",
        }


def _mesh_air(model: TetModel, outside: np.ndarray, centre: np.ndarray, radius: float, h_far: float):
    from fieldline_engine.geometry.gmsh_mesher import gmsh_session

    nv = model.nv
    with gmsh_session() as gmsh:
        sphere_xyz, sphere_tris = _sphere_triangles(gmsh, centre, radius, h_far)
        gmsh.model.add("air_region")
        gmsh.option.setNumber("Mesh.MeshSizeMin", 0.0)
        gmsh.option.setNumber("Mesh.MeshSizeMax", h_far)
        inner = gmsh.model.addDiscreteEntity(2)
        used, local = np.unique(model.faces[outside], return_inverse=True)
        n_used = len(used)
        gmsh.model.mesh.addNodes(2, inner, list(range(1, n_used + 1)), model.vertices[used].ravel().tolist())
        gmsh.model.mesh.addElementsByType(inner, 2, [], (local.reshape(-1) + 1).tolist())
        outer = gmsh.model.addDiscreteEntity(2)
        tags = np.arange(n_used + 1, n_used + 1 + len(sphere_xyz))
        gmsh.model.mesh.addNodes(2, outer, tags.tolist(), sphere_xyz.ravel().tolist())
        gmsh.model.mesh.addElementsByType(outer, 2, [], tags[sphere_tris].ravel().tolist())
        loops = [gmsh.model.geo.addSurfaceLoop([outer]), gmsh.model.geo.addSurfaceLoop([inner])]
        volume = gmsh.model.geo.addVolume(loops)
        gmsh.model.geo.synchronize()
        try:
            gmsh.model.mesh.generate(3)
        except Exception as exc:  # gmsh raises a bare Exception carrying its message
            raise EngineError(
                "meshing_failed",
                f"Could not mesh the air around the model ({exc}). The model's outside must be a closed, "
                "non-self-intersecting surface; or model the air yourself and set airPadding to 0.",
            ) from exc
        all_tags, xyz, _ = gmsh.model.mesh.getNodes()
        all_tags = all_tags.astype(np.int64)
        new = all_tags > n_used
        index = np.full(int(all_tags.max()) + 1, -1, dtype=np.int64)
        index[all_tags[~new]] = used[all_tags[~new] - 1]
        index[all_tags[new]] = nv + np.arange(int(new.sum()))
        new_xyz = xyz.reshape(-1, 3)[new]
        _, nodes = gmsh.model.mesh.getElementsByType(4, volume)
        tets = index[nodes.astype(np.int64)].reshape(-1, 4)
        sphere = index[tags[sphere_tris]]
    return new_xyz, tets, sphere


def add_air(model: TetModel, labels: np.ndarray, padding: float) -> AirRegion:
    outside = model.face_outer_region == -1
    lo, hi = model.vertices.min(axis=0), model.vertices.max(axis=0)
    centre = (lo + hi) / 2
    r_model = float(np.max(np.linalg.norm(model.vertices - centre, axis=1)))
    radius = r_model * (1.0 + padding)
    new_xyz, tets, sphere = _mesh_air(model, outside, centre, radius, radius / SPHERE_ELEMENTS_PER_RADIUS)
    vertices = np.concatenate([model.vertices, new_xyz])
    tets = _positive(vertices, tets)
    _check_conforming(np.concatenate([model.tetrahedra, tets]))
    nb = len(model.region_names)
    sphere = _orient_outward(vertices, sphere, centre)
    face_outer = model.face_outer_region.copy()
    face_outer[outside] = nb
    merged = TetModel(
        vertices=vertices,
        tetrahedra=np.concatenate([model.tetrahedra, tets]),
        regions=np.concatenate([model.regions, np.full(len(tets), nb, dtype=np.int64)]),
        region_names=[*model.region_names, AIR_REGION_NAME],
        faces=np.concatenate([model.faces, sphere]),
        face_inner_region=np.concatenate([model.face_inner_region, np.full(len(sphere), nb)]).astype(
            np.int64
        ),
        face_outer_region=np.concatenate([face_outer, np.full(len(sphere), -1)]).astype(np.int64),
        unit_scale=model.unit_scale,
        interface_faces=model.interface_faces,
        interface_regions=model.interface_regions,
    )
    merged_labels = np.concatenate([labels.astype(object), np.full(len(sphere), "default", dtype=object)])
    return AirRegion(merged, merged_labels, radius, centre, len(new_xyz), len(tets))
