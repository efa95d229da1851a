"""Validation geometries for the full-wave tests and benches, meshed with netgen.occ (curved on request).

Boundary names follow the engine's labels: `default` is PEC, `port_k` are wave ports.
"""

import math

import ngsolve as ng
import numpy as np
from netgen.occ import Box, Cylinder, OCCGeometry, Pnt, WorkPlane, X, Z

WR90_A = 22.86e-3
WR90_B = 10.16e-3
# RG-401 (Palace coaxial example): conductor diameters 0.0645" and 0.215", PTFE εr = 2.08.
RG401_INNER = 0.5 * 0.0645 * 25.4e-3
RG401_OUTER = 0.5 * 0.215 * 25.4e-3
RG401_EPS_R = 2.08


def waveguide_mesh(
    length: float, maxh: float, a: float = WR90_A, b: float = WR90_B, wall_label: str = "default"
) -> ng.Mesh:
    guide = Box((0, 0, 0), (a, b, length))
    guide.faces.name = wall_label
    guide.faces.Min(Z).name = "port_0"
    guide.faces.Max(Z).name = "port_1"
    guide.mat("body0")
    return ng.Mesh(OCCGeometry(guide).GenerateMesh(maxh=maxh))


def coax_mesh(
    length: float,
    maxh: float,
    curve_order: int = 0,
    curvature_safety: float = 2.0,
    end_labels: tuple[str, str] = ("port_0", "port_1"),
    **mesh_options,
) -> ng.Mesh:
    """RG-401 cross-section along z from 0 to `length`; `end_labels` name the two end annuli
    ("default" makes an end a PEC short); `mesh_options` go to netgen's GenerateMesh."""
    outer = Cylinder(Pnt(0, 0, 0), Z, r=RG401_OUTER, h=length)
    inner = Cylinder(Pnt(0, 0, 0), Z, r=RG401_INNER, h=length)
    line = outer - inner
    line.faces.name = "default"
    line.faces.Min(Z).name = end_labels[0]
    line.faces.Max(Z).name = end_labels[1]
    line.mat("body0")
    mesh = ng.Mesh(
        OCCGeometry(line).GenerateMesh(maxh=maxh, curvaturesafety=curvature_safety, **mesh_options)
    )
    if curve_order:
        mesh.Curve(curve_order)
    return mesh


def coax_wedge_mesh(
    length: float,
    angle_deg: float,
    maxh: float,
    curve_order: int = 0,
    curvature_safety: float = 2.0,
    end_labels: tuple[str, str] = ("port_0", "port_1"),
    wall_label: str = "sym",
    **mesh_options,
) -> ng.Mesh:
    """An `angle_deg` wedge of the RG-401 line along z (0 to `length`): the conductors' arcs are
    "default" (PEC), the two radial side faces `wall_label` (a symmetry plane: left without a PEC
    condition they are PMC, which the TEM field E = ρ̂/ρ satisfies exactly). Built as one extruded
    annular sector (no boolean: a few ms)."""
    th = math.radians(angle_deg)
    a, b = RG401_INNER, RG401_OUTER
    wp = WorkPlane()
    wp.MoveTo(a, 0).LineTo(b, 0, name=wall_label)
    wp.ArcTo(b * math.cos(th), b * math.sin(th), (0, 1), name="default")
    wp.LineTo(a * math.cos(th), a * math.sin(th), name=wall_label)
    wp.ArcTo(a, 0, (math.sin(th), -math.cos(th)), name="default")
    wedge = wp.Face().Extrude(length)
    wedge.faces.Min(Z).name = end_labels[0]
    wedge.faces.Max(Z).name = end_labels[1]
    wedge.mat("body0")
    mesh = ng.Mesh(
        OCCGeometry(wedge).GenerateMesh(maxh=maxh, curvaturesafety=curvature_safety, **mesh_options)
    )
    if curve_order:
        mesh.Curve(curve_order)
    return mesh


# Kuhn's split of a hexahedron into six tetrahedra along its 0–7 diagonal (corner k = 4i + 2j + l for the
# offsets i, j, l): the same split in every cell makes the faces of neighbours match.
_KUHN = np.array([(0, 1, 3, 7), (0, 1, 5, 7), (0, 2, 3, 7), (0, 2, 6, 7), (0, 4, 5, 7), (0, 4, 6, 7)])


def structured_coax_wedge(
    length: float, angle_deg: float, n_radial: int, n_angular: int, n_axial: int
) -> dict:
    """An `angle_deg` wedge of the RG-401 line along z as uploaded tetrahedra (mesh data in metres), from
    a structured (ρ, φ, z) grid without a mesher: straight-sided, so the conductors' arcs are chords
    (a TEM wave still travels at c on any cross-section). Label its faces with `coax_wedge_face_labels`."""
    rho = np.linspace(RG401_INNER, RG401_OUTER, n_radial + 1)
    phi = np.linspace(0.0, math.radians(angle_deg), n_angular + 1)
    z = np.linspace(0.0, length, n_axial + 1)
    r, p, zz = np.meshgrid(rho, phi, z, indexing="ij")
    vertices = np.stack([r * np.cos(p), r * np.sin(p), zz], axis=-1).reshape(-1, 3)
    index = np.arange(len(vertices)).reshape(n_radial + 1, n_angular + 1, n_axial + 1)
    nr, na, nz = n_radial, n_angular, n_axial
    corners = np.stack(
        [index[i : nr + i, j : na + j, k : nz + k] for i in (0, 1) for j in (0, 1) for k in (0, 1)], axis=-1
    ).reshape(-1, 8)
    # lists, as a job's mesh file holds them
    return {
        "vertices": vertices.tolist(),
        "tetrahedra": corners[:, _KUHN].reshape(-1, 4).tolist(),
        "units": "m",
    }


def coax_wedge_face_labels(
    vertices: np.ndarray, faces: np.ndarray, angle_deg: float, port: str = "port_0", far_end: str = "default"
) -> np.ndarray:
    """Boundary labels of a wedge's surface triangles: the z = 0 end `port`, the far end `far_end`, the
    two radial side faces "sym" (PMC) and the conductors "default" (PEC)."""
    tri = vertices[faces]
    z = tri[..., 2]
    labels = np.full(len(faces), "default", dtype=object)
    labels[np.all(np.abs(z) < 1e-12, axis=1)] = port
    labels[np.all(np.abs(z - z.max()) < 1e-12, axis=1)] = far_end
    phi = np.arctan2(tri[..., 1], tri[..., 0])
    for side in (0.0, math.radians(angle_deg)):
        labels[np.all(np.abs(phi - side) < 1e-9, axis=1)] = "sym"
    return labels


def cavity_mesh(
    size: tuple[float, float, float], maxh: float, curve_order: int = 0, wall_label: str = "default"
) -> ng.Mesh:
    box = Box((0, 0, 0), size)
    box.faces.name = wall_label
    box.mat("body0")
    mesh = ng.Mesh(OCCGeometry(box).GenerateMesh(maxh=maxh))
    if curve_order:
        mesh.Curve(curve_order)
    return mesh


__all__ = [
    "X",
    "waveguide_mesh",
    "coax_mesh",
    "coax_wedge_mesh",
    "structured_coax_wedge",
    "coax_wedge_face_labels",
    "cavity_mesh",
]


def sphere_scatterer_mesh(
    radius: float, r_ntff: float, r_pml: float, thickness: float, maxh: float, curve_order: int
) -> ng.Mesh:
    """A PEC sphere (`scatterer`) in air, a far-field surface (`ntff`), and a PML shell (material `pml`)
    whose outer surface is `default` (PEC)."""
    from netgen.occ import Glue, Sphere

    spheres = [Sphere(Pnt(0, 0, 0), r) for r in (radius, r_ntff, r_pml, r_pml + thickness)]
    for s, name in zip(spheres, ("scatterer", "ntff", "pml_inner", "default"), strict=True):
        s.faces.name = name
    inner, mid, shell = spheres[1] - spheres[0], spheres[2] - spheres[1], spheres[3] - spheres[2]
    inner.mat("air")
    mid.mat("air")
    shell.mat("pml")
    mesh = ng.Mesh(OCCGeometry(Glue([inner, mid, shell])).GenerateMesh(maxh=maxh))
    mesh.Curve(curve_order)
    return mesh
