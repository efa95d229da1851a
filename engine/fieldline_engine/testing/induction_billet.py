"""Induction heating of a long cylindrical billet in a long solenoid: closed forms and a meshed slice.

A billet of radius a and conductivity σ in the uniform axial field H₀ e^{jωt} of a long solenoid
(H₀ = N·I/h, peak, with N turns over the height h) carries (k = (1 − j)/δ, δ = √(2/ωμσ))

    H_z(r) = H₀ J₀(kr)/J₀(ka),   J_φ(r) = H₀ k J₁(kr)/J₀(ka),

and absorbs per unit length P′ = (π/σ) ∫₀^a |J_φ|² r dr (time average; equal to the Poynting flux
π a Re[−E_φ H_z*] at its surface). Heated by q(r) = |J_φ|²/2σ with its surface held at T_s, its centre is
ΔT = ∫₀^a (1/(κ r)) ∫₀^r q(s) s ds dr above T_s (κ its thermal conductivity).

The meshed slice is a height h of billet, gap, winding and air with every outer face flux-normal (n×H = 0:
the ends are symmetry planes of the infinite solenoid, and the field outside an infinite solenoid is 0),
so H₀ = N·I/h holds exactly.
"""

import math
from typing import Any

import numpy as np
from scipy.integrate import quad
from scipy.special import jv

MU0 = 4e-7 * math.pi


def current_density(r: float, h0: float, radius: float, sigma: float, frequency: float) -> complex:
    k = (1 - 1j) / math.sqrt(2.0 / (2 * math.pi * frequency * MU0 * sigma))
    return complex(h0 * k * jv(1, k * r) / jv(0, k * radius))


def power_per_length(h0: float, radius: float, sigma: float, frequency: float) -> float:
    value, _ = quad(
        lambda r: abs(current_density(r, h0, radius, sigma, frequency)) ** 2 * r, 0.0, radius, limit=200
    )
    return math.pi / sigma * value


def surface_power_per_length(h0: float, radius: float, sigma: float, frequency: float) -> float:
    """The same power from the surface impedance: π a Re[−E_φ H_z*], E_φ = J_φ/σ at r = a."""
    e_phi = current_density(radius, h0, radius, sigma, frequency) / sigma
    return math.pi * radius * (-(e_phi * np.conj(h0))).real


def centre_temperature_rise(h0: float, radius: float, sigma: float, frequency: float, kappa: float) -> float:
    def q(s: float) -> float:
        return abs(current_density(s, h0, radius, sigma, frequency)) ** 2 / (2 * sigma)

    def inner(r: float) -> float:
        if r == 0:
            return 0.0
        return quad(lambda s: q(s) * s, 0.0, r, limit=200)[0] / (kappa * r)

    return quad(inner, 0.0, radius, limit=200)[0]


def billet_slice_mesh_data(
    radius_mm: float = 10.0,
    coil_mm: tuple[float, float] = (13.0, 15.0),
    outer_mm: float = 18.0,
    height_mm: float = 2.0,
    billet_h_mm: float = 1.2,
) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """mesh_data (mm; bodies billet, gap, coil, air) and the face ids of the outer boundary (`outer`) and of
    the billet's curved surface (`billet_skin`)."""
    import ngsolve as ng
    from netgen import occ

    def cylinder(r: float) -> Any:
        return occ.Cylinder(occ.Pnt(0, 0, 0), occ.Z, r=r, h=height_mm)

    billet = cylinder(radius_mm)
    gap = cylinder(coil_mm[0]) - billet
    coil = cylinder(coil_mm[1]) - cylinder(coil_mm[0])
    air = cylinder(outer_mm) - cylinder(coil_mm[1])
    names = ["billet", "gap", "coil", "air"]
    for body, name in zip((billet, gap, coil, air), names, strict=True):
        body.solids.name = name
    billet.faces.maxh = billet_h_mm
    shape = occ.Glue([billet, gap, coil, air])
    mesh = ng.Mesh(occ.OCCGeometry(shape).GenerateMesh(maxh=2 * billet_h_mm))
    vertices = np.array([p.point for p in mesh.vertices])
    tets, regions = [], []
    for el in mesh.Elements(ng.VOL):
        tets.append([v.nr for v in el.vertices])
        regions.append(names.index(el.mat))
    faces: list[list[int]] = []
    groups: dict[str, list[int]] = {"outer": [], "billet_skin": []}
    for el in mesh.Elements(ng.BND):
        tri = [v.nr for v in el.vertices]
        faces.append(tri)
        pts = vertices[tri]
        r = np.hypot(pts[:, 0], pts[:, 1])
        on_end = np.all(np.abs(pts[:, 2]) < 1e-9) or np.all(np.abs(pts[:, 2] - height_mm) < 1e-9)
        if on_end or np.all(np.abs(r - outer_mm) < 1e-3 * outer_mm):
            groups["outer"].append(len(faces))
        elif np.all(np.abs(r - radius_mm) < 1e-3 * radius_mm):
            groups["billet_skin"].append(len(faces))
    data = {
        "vertices": vertices.tolist(),
        "tetrahedra": tets,
        "tetrahedron_regions": regions,
        "region_names": names,
        "faces": faces,
        "units": "mm",
    }
    return data, groups
