"""Skin effect in a round wire: the Bessel-function reference and a meshed case.

A straight round wire of radius a and conductivity σ carrying I e^{jωt} has the internal impedance per
length (e^{+jωt}, k = (1 − j)/δ, δ = √(2/ωμσ); Ramo, Whinnery & Van Duzer, *Fields and Waves*, §5.6)

    Z_i = k J₀(ka) / (2π a σ J₁(ka)),   so   R_ac/R_dc = Re[(ka/2) J₀(ka)/J₁(ka)],

R_dc = 1/(πa²σ). The meshed case is a length of wire inside a coaxial air sleeve whose outer surface
carries the return current (n×A = 0 there): the field inside the wire is that of the infinite wire, the
wire's two end faces on the model's boundary are its terminals.
"""

import math
from typing import Any

import numpy as np
from scipy.special import jv

MU0 = 4e-7 * math.pi


def skin_depth(frequency: float, sigma: float, mu_r: float = 1.0) -> float:
    return math.sqrt(2.0 / (2 * math.pi * frequency * MU0 * mu_r * sigma))


def frequency_for(radius_over_depth: float, radius: float, sigma: float) -> float:
    """The frequency at which the wire's radius is `radius_over_depth` skin depths."""
    delta = radius / radius_over_depth
    return 2.0 / (MU0 * sigma * delta**2) / (2 * math.pi)


def internal_impedance_per_length(radius: float, sigma: float, frequency: float) -> complex:
    k = (1 - 1j) / skin_depth(frequency, sigma)
    return complex(k * jv(0, k * radius) / (2 * math.pi * radius * sigma * jv(1, k * radius)))


def ac_resistance_ratio(radius_over_depth: float) -> float:
    ka = (1 - 1j) * radius_over_depth
    return float(((ka / 2) * jv(0, ka) / jv(1, ka)).real)


def wire_mesh_data(
    radius_mm: float = 1.0, length_mm: float = 0.5, sleeve_mm: float = 2.0, wire_h_mm: float = 0.25
) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """mesh_data (mm; body 0 the wire, body 1 the air sleeve) and the face ids of the wire's end faces
    (`in` at z = 0, `out` at z = length) and of the whole outer boundary."""
    import ngsolve as ng
    from netgen import occ

    wire = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=radius_mm, h=length_mm)
    sleeve = occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=sleeve_mm, h=length_mm) - wire
    wire.solids.name, sleeve.solids.name = "wire", "air"
    wire.faces.maxh = wire_h_mm
    mesh = ng.Mesh(occ.OCCGeometry(occ.Glue([wire, sleeve])).GenerateMesh(maxh=2 * wire_h_mm))
    vertices = np.array([p.point for p in mesh.vertices])
    tets, regions = [], []
    for el in mesh.Elements(ng.VOL):
        tets.append([v.nr for v in el.vertices])
        regions.append(0 if el.mat == "wire" else 1)
    faces, groups = [], {"in": [], "out": []}
    for el in mesh.Elements(ng.BND):
        tri = [v.nr for v in el.vertices]
        faces.append(tri)
        pts = vertices[tri]
        inside = np.all(np.hypot(pts[:, 0], pts[:, 1]) <= radius_mm * (1 + 1e-9))
        if inside and np.all(np.abs(pts[:, 2]) < 1e-9):
            groups["in"].append(len(faces))
        elif inside and np.all(np.abs(pts[:, 2] - length_mm) < 1e-9):
            groups["out"].append(len(faces))
    data = {
        "vertices": vertices.tolist(),
        "tetrahedra": tets,
        "tetrahedron_regions": regions,
        "region_names": ["wire", "air"],
        "faces": faces,
        "units": "mm",
    }
    return data, groups
